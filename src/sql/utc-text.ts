/**
 * Columns are UTC `timestamp(3)` without a zone (Prisma's convention), so plain SQL sends and reads
 * them as zone-less UTC text.
 */
export const toUtcText = (date: Date) => date.toISOString().replace("Z", "");
export const fromUtcText = (text: string) => new Date(`${text}Z`);
