// What the services' zod schemas share: an integer range, and the first problem of a payload
// as one line that names the field ("settings.nodes: Too small: expected number to be >=1").

import { z } from "zod";

/** An integer from min to max. */
export const int = (min: number, max: number) => z.number().int().min(min).max(max);

/** The first problem zod found, as "field: message". */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.length ? issue.path.map(String).join(".") : "the record";
  return `${path}: ${issue.message}`;
}
