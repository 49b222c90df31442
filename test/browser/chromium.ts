import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium (or CHROMIUM_PATH), headless, with its own background traffic off: this machine reaches no outside network. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
