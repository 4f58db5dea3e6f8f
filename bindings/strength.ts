// Strength levels on the Elo scale: UCI_Elo (and the Engine's setElo) becomes a fractional
// skill level (assembly/skill.ts) through a table measured against Stockfish 15.1 at the same
// UCI_Elo (README "Strength levels": how, and the results).

/** The Elo range of UCI_Elo and setElo. */
export const ELO_MIN = 1000;
export const ELO_MAX = 2100;
/** The skill levels (Skill Level, setSkillLevel); 20 is full strength. */
export const SKILL_MIN = 0;
export const SKILL_MAX = 20;

/** Skill level -> Elo on Stockfish 15.1's UCI_Elo scale, as measured (between the points
 *  the scale is interpolated, beyond them extrapolated by the last slope). */
// Measured at 5+0.05 against Stockfish 15.1 (README "Strength levels"): level 4 1306 ± 189,
// level 9 1791 ± 268, level 14 1989 ± 199, level 19 2009 ± 225 (16 games each); level 0 lost
// 11 of 11 against UCI_Elo 1350. The table smooths these into a rising curve. Levels 6 and 7
// came later, from the labels' own matches against Stockfish at the same UCI_Elo (40 games
// each, 5+0.05): label 1500 (level 6.04 then) measured 1535, label 1800 (level 9.29) 1800, and
// label 1600 (level 7.06) about 1770 (28-2-10), so the curve rises faster from level 4 to 7
// than the line from 4 to 9 had it.
export const SKILL_ELO: readonly (readonly [number, number])[] = [
  [0, 900],
  [4, 1300],
  [6, 1530],
  [7, 1700],
  [9, 1800],
  [14, 1960],
  [19, 2100],
];

/** The fractional skill level that plays at `elo` (ELO_MIN..ELO_MAX). */
export function eloToSkill(elo: number): number {
  const t = SKILL_ELO;
  let i = 0;
  while (i < t.length - 2 && elo > t[i + 1][1]) i++;
  const [l0, e0] = t[i];
  const [l1, e1] = t[i + 1];
  const level = l0 + ((elo - e0) * (l1 - l0)) / (e1 - e0);
  return Math.min(Math.max(level, SKILL_MIN), SKILL_MAX - 0.001);
}
