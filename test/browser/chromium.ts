import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import axe from "axe-core";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";

/**
 * How long a page may take to load, or a step on it to happen: while the suite's other files keep
 * the cores busy, Chromium parses GraphiQL's editor alone for longer than Playwright's default 30 s.
 */
const BROWSER_STEP_MS = 60_000;

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

/** A page in a context of its own, whose loads and steps wait up to BROWSER_STEP_MS. */
export async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(BROWSER_STEP_MS);
  return context.newPage();
}

/** What axe-core finds on the page, a line a rule; the page's context must bypass its CSP (axe is injected as a script). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const result = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run());
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** The sizes screenshot() takes each picture at: a desktop browser and a phone held upright. */
const SCREENSHOT_SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/**
 * Pictures of the page as `<name>-desktop.png` and `<name>-phone.png` in PAYREQ_SCREENSHOTS's
 * folder, when it is set (the README's picture of the console comes from there); nothing otherwise.
 * The page is left at the size it had.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const folder = process.env["PAYREQ_SCREENSHOTS"];
  if (!folder) return;
  await mkdir(folder, { recursive: true });
  const size = page.viewportSize();
  for (const [device, viewport] of Object.entries(SCREENSHOT_SIZES)) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: join(folder, `${name}-${device}.png`), fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}
