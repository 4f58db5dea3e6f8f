// What the services' zod schemas share: an integer range, the first problem of a payload as
// one line that names the field ("settings.nodes: Too small: expected number to be >=1"), and
// reading a record with it.

import { z } from "zod";

/** An integer from min to max. */
export const int = (min: number, max: number) => z.number().int().min(min).max(max);

/** The first problem zod found, as "field: message". */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.length ? issue.path.map(String).join(".") : "the record";
  return `${path}: ${issue.message}`;
}

/** The data read by a schema; an Error "bad <what>: <field>: <message>" when it does not fit. */
export function parseRecord<T extends z.ZodType>(schema: T, what: string, data: unknown): z.infer<T> {
  const r = schema.safeParse(data);
  if (!r.success) throw new Error(`bad ${what}: ${describeIssue(r.error)}`);
  return r.data;
}
