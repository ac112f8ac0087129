"""The Pi's own hardware: NeoPixel LEDs, gpiozero buttons and ring encoders, board layouts."""
