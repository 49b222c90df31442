/**
 * How a merchant's pay pages look: a display name (up to 60 characters), a logo (PNG, JPEG or WebP
 * of at most 64 KB, given as a `data:` URL; its bytes must be of the type it names, and SVG, which
 * can carry script, is refused) and an accent colour dark enough for white text on it (WCAG AA,
 * 4.5:1). Set by the merchant (a key, or a console session that may change things).
 */
import { createHash } from "node:crypto";
import type { Updateable } from "kysely";
import { z } from "zod";
import type { DB } from "../../generated/kysely/database.js";
import { database } from "../../db.js";
import { requireMerchant, requireWriter } from "../auth.js";
import type { DomainContext } from "../context.js";
import { ValidationError } from "../errors.js";
import { parseInput, text } from "../validation.js";

export const LOGO_MOST_BYTES = 64 * 1024;

export interface Branding {
  merchantId: string;
  displayName: string | null;
  accentColor: string | null;
  /** The logo's hash (its address names it), null without one. */
  logoHash: string | null;
}

export interface Logo {
  type: string;
  bytes: Buffer;
}

/** Each type a logo may be, and how its file starts. */
const LOGO_TYPES: Record<string, (bytes: Buffer) => boolean> = {
  "image/png": (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  "image/jpeg": (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  "image/webp": (bytes) => bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP",
};

const invalidLogo = (why: string) => new ValidationError("INVALID_LOGO", `The logo ${why}.`);

/** A `data:` URL's image, when it is one the pay page may show. */
export function logoOf(dataUrl: string): Logo {
  const [, type = "", encoded = ""] = /^data:([a-z0-9.+/-]+)(?:;[^,]*)?;base64,([A-Za-z0-9+/=\s]*)$/i.exec(dataUrl.trim()) ?? [];
  if (!type) throw invalidLogo("must be a data: URL with base64 content");
  const mediaType = type.toLowerCase();
  if (mediaType === "image/svg+xml") throw invalidLogo("may not be SVG: use PNG, JPEG or WebP");
  const matches = LOGO_TYPES[mediaType];
  if (!matches) throw invalidLogo(`must be PNG, JPEG or WebP, not ${mediaType}`);
  const bytes = Buffer.from(encoded, "base64");
  if (bytes.length === 0) throw invalidLogo("is empty");
  if (bytes.length > LOGO_MOST_BYTES) throw invalidLogo(`is ${bytes.length} bytes: at most ${LOGO_MOST_BYTES}`);
  if (!matches(bytes)) throw invalidLogo(`is not a ${mediaType} file`);
  return { type: mediaType, bytes };
}

/** WCAG's relative luminance of `#rrggbb`. */
function luminance(color: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(color.slice(at, at + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The contrast ratio of `#rrggbb` against white, from 1 to 21. */
export const contrastWithWhite = (color: string): number => 1.05 / (luminance(color) + 0.05);

/** An accent colour white text and the page's white stay readable against. */
export function accentOf(given: string): string {
  const color = given.trim().toLowerCase();
  if (!/^#[0-9a-f]{6}$/.test(color)) throw new ValidationError("INVALID_COLOR", "accentColor must be #rrggbb, such as #0b5e5a.");
  const ratio = contrastWithWhite(color);
  if (ratio < 4.5)
    throw new ValidationError(
      "INVALID_COLOR",
      `accentColor ${color} has a contrast of ${ratio.toFixed(2)}:1 against white; it must be at least 4.5:1 (WCAG AA): choose a darker colour.`,
    );
  return color;
}

export interface BrandingChange {
  /** Absent: unchanged; null: removed. The same for the others. */
  displayName?: string | null;
  logo?: string | null;
  accentColor?: string | null;
}

const displayNameInput = z.object({ displayName: text(60) });

/** Sets what is given of the merchant's branding (null removes a part), and answers it as it now is. */
export async function updateBranding(ctx: DomainContext, change: BrandingChange): Promise<Branding> {
  const { merchantId } = requireWriter(ctx);
  const set: Updateable<DB["merchantBranding"]> = {};
  if (change.displayName === null) set.displayName = null;
  else if (change.displayName !== undefined && change.displayName.trim() !== "")
    set.displayName = parseInput(
      displayNameInput,
      { displayName: "BAD_REQUEST" },
      { displayName: change.displayName },
    ).displayName;
  if (change.accentColor === null) set.accentColor = null;
  else if (change.accentColor !== undefined && change.accentColor.trim() !== "") set.accentColor = accentOf(change.accentColor);
  if (change.logo === null) Object.assign(set, { logo: null, logoType: null, logoHash: null });
  else if (change.logo !== undefined && change.logo.trim() !== "") {
    const { type, bytes } = logoOf(change.logo);
    Object.assign(set, { logo: bytes, logoType: type, logoHash: createHash("sha256").update(bytes).digest("hex").slice(0, 16) });
  }
  const now = ctx.now();
  const row = await database
    .insertInto("merchantBranding")
    .values({ merchantId, updatedAt: now, ...set })
    .onConflict((conflict) => conflict.column("merchantId").doUpdateSet({ updatedAt: now, ...set }))
    .returning(["merchantId", "displayName", "accentColor", "logoHash"])
    .executeTakeFirstOrThrow();
  return row;
}

/** The merchant's branding (all null when it set none). */
export async function merchantBranding(ctx: DomainContext): Promise<Branding> {
  const { merchantId } = requireMerchant(ctx);
  const row = await database
    .selectFrom("merchantBranding")
    .select(["merchantId", "displayName", "accentColor", "logoHash"])
    .where("merchantId", "=", merchantId)
    .executeTakeFirst();
  return row ?? { merchantId, displayName: null, accentColor: null, logoHash: null };
}

/** A merchant's logo by its hash, for the pay page (null when it has no such logo). */
export async function logoByHash(merchantId: string, hash: string): Promise<Logo | null> {
  const row = await database
    .selectFrom("merchantBranding")
    .select(["logo", "logoType"])
    .where("merchantId", "=", merchantId)
    .where("logoHash", "=", hash)
    .executeTakeFirst();
  return row?.logo && row.logoType ? { type: row.logoType, bytes: Buffer.from(row.logo) } : null;
}
