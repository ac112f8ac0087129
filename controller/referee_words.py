"""What the referee says of a board (``controller.i18n`` renders it in the board's language); places
are named in the game's notation (``Game.channel_label``)."""

from controller.games.base import Phrase

MISSING = Phrase("board.missing", "a piece is missing at {place}")
EXTRA = Phrase("board.extra", "a piece should not be at {place}")
WRONG_COUNT = Phrase("board.wrong_count", "{place} holds {got}, it should hold {want}")
WRONG_OFFSET = Phrase("board.wrong_offset", "{place} is turned to {got}, it should be at {want}")
WRONG_PIECE = Phrase("board.wrong_piece", "the piece at {place} is the wrong one (sensed {got}, should be {want})")
AND_MORE = Phrase("board.and_more", "and {count} more")
WRONG_PIECE_FOR_MOVE = Phrase("board.wrong_piece_for_move", "the piece at {place} is the wrong one for this move "
                              "(sensed {got}, the move needs {want}: another player's piece, or single for double)")
WRONG_TURN = Phrase("board.wrong_turn", "{place} was turned to {got}; the required turn brings it to {want} "
                    "(wrong direction or wrong number of spaces)")
WRONG_VALUE = Phrase("board.wrong_value", "{place} shows {got}, the nearest legal move makes it {want}")
NOT_LEGAL = Phrase("board.not_legal", "not a legal move: {what}")
NOT_LEGAL_NEAR = Phrase("board.not_legal_near", "not a legal move: {what} (the nearest legal move is {move})")
TOO_MUCH = Phrase("board.too_much", "{what} (the board changed in too many ways at once to check every pair of "
                  "moves; make one move at a time)")
WAITING_FOR_ROLL = Phrase("board.waiting_for_roll", "waiting for a roll; put the board back as it was: {what}")
FITS_SEVERAL = Phrase("board.fits_several", "the board fits {count} moves: {moves}; choose one")
TOOK_BACK = Phrase("board.took_back", "took back {moves}")
ONLY_RESTED = Phrase("board.only_rested", "the board shows {shows}, not {moved}: the hands had only rested on the way")
TAKEBACK_ON_THE_WAY = Phrase("board.takeback_on_the_way", "the board shows {shows}: taking back {redone} was only "
                             "on the way")
AS_IT_WAS = Phrase("board.as_it_was", "the game as it was")
