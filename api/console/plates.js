/**
 * The plate calculator: a barbell load as the bar and the plates on each side, heaviest first, in the member's unit.
 * The bar and plates are a commercial gym's standard set (20 kg bar with 25…1.25 kg plates; 45 lb bar with 45…2.5 lb
 * plates); a load the plates cannot make exactly is given as the nearest one under it.
 */
const SETS = {
  kg: { bar: 20, plates: [25, 20, 15, 10, 5, 2.5, 1.25] },
  lbs: { bar: 45, plates: [45, 35, 25, 10, 5, 2.5] },
};

const setOf = (unit) => SETS[unit] ?? SETS.kg;
export const barFor = (unit) => setOf(unit).bar;

/** {bar, perSide: [plates…], total, off} for `load`, or null under the bar's own weight. */
export function platesFor(load, unit) {
  const { bar, plates } = setOf(unit);
  if (!(load >= bar)) return null;
  let side = Math.round(((load - bar) / 2) * 100);  // hundredths: 1.25 kg plates without float drift
  const perSide = [];
  for (const plate of plates) {
    const p = Math.round(plate * 100);
    while (side >= p) {
      perSide.push(plate);
      side -= p;
    }
  }
  const total = bar + 2 * perSide.reduce((sum, p) => sum + p, 0);
  return { bar, perSide, total, off: Math.abs(total - load) > 1e-9 };
}
