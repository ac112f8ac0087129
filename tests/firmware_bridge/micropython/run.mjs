// Runs a script under the real MicroPython interpreter (its WebAssembly port, from npm).
//   node run.mjs SCRIPT [MODULE_FILE...]
// Each MODULE_FILE (.py, or .mpy from mpy-cross) is copied into MicroPython's own filesystem
// under /lib (on its sys.path), so the script imports it by name. The script's output goes to
// stdout; a Python exception prints its traceback on stderr and exits 1.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const [script, ...modules] = process.argv.slice(2);
const out = [];
const take = (chunk) => out.push(Buffer.from(chunk));  // unbuffered: raw bytes, as printed
const mp = await loadMicroPython({ stdout: take, stderr: take, linebuffer: false });
mp.FS.mkdir("/lib");
for (const path of modules) {
  mp.FS.writeFile("/lib/" + basename(path), readFileSync(path));
}
let code = 0;
try {
  mp.runPython("import sys\nif '/lib' not in sys.path: sys.path.append('/lib')\n");
  mp.runPython(readFileSync(script, "utf8"));
} catch (error) {
  process.stderr.write(String(error.message ?? error) + "\n");
  code = 1;
}
process.stdout.write(Buffer.concat(out));
process.exitCode = code;
