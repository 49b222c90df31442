/**
 * The preload the migrate CLI runs with (scripts/start/engine-lock-timer.cjs): a timer of 10 s or
 * more started from WebAssembly no longer holds the process open; every other timer still does.
 * A tiny module stands in for Prisma's engine: its one export calls back into JavaScript, which
 * starts the timer from inside a WebAssembly frame, as the engine's `setTimeout` import does.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const preload = resolve(import.meta.dirname, "../../scripts/start/engine-lock-timer.cjs");

// (module (import "env" "f" (func)) (func (export "run") call 0))
const WASM_CALLING_BACK = "0061736d0100000001040160000002090103656e760166000003020100070701037275" + "6e00010a0601040010000b";

const probe = `
const bytes = Buffer.from(${JSON.stringify(WASM_CALLING_BACK)}, "hex");
const held = {};
let delay = 0;
let timer;
const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { f: () => { timer = setTimeout(() => {}, delay); } } });
for (const ms of [10000, 60000, 1000]) {
  delay = ms;
  exports.run();
  held["wasm " + ms] = timer.hasRef();
  clearTimeout(timer);
  const own = setTimeout(() => {}, ms);
  held["js " + ms] = own.hasRef();
  clearTimeout(own);
}
process.stdout.write(JSON.stringify(held));
`;

it("lets go of the engine's long timers only, so a finished migration exits at once", async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ["--require", preload, "-e", probe], { timeout: 10_000 });
  expect(JSON.parse(stdout)).toEqual({
    "wasm 10000": false,
    "wasm 60000": false,
    "wasm 1000": true,
    "js 10000": true,
    "js 60000": true,
    "js 1000": true,
  });
});
