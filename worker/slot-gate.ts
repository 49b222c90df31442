/**
 * A worker's slots for attempts, taken a job's worth at a time: a job's attempts start together
 * once as many slots are free (first come, first served), so that they reach each of their
 * statements in one batch, and give their slots back as each ends.
 */
export function slotGate(slots: number) {
  let free = slots;
  const waiting: { count: number; go: () => void }[] = [];
  const admit = () => {
    while (waiting.length > 0 && waiting[0]!.count <= free) {
      const next = waiting.shift()!;
      free -= next.count;
      next.go();
    }
  };
  return {
    /** Resolves once `count` slots (at most all of them) are taken for the caller. */
    take(count: number): Promise<void> {
      return new Promise((go) => {
        waiting.push({ count: Math.min(count, slots), go });
        admit();
      });
    },
    /** Gives `count` slots back. */
    give(count: number): void {
      free = Math.min(slots, free + count);
      admit();
    },
  };
}
