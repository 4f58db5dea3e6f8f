// Connections to the Redis the services share (Debian's redis-server; `npm run redis` starts
// one for local use). Commands wait while Redis is away (a restart keeps its append-only
// file), so a coordinator or worker outlives a Redis restart instead of failing with it.

import { Redis } from "ioredis";

/** Checks a redis:// (or rediss://) URL; throws an Error that says what is wrong. */
export function checkRedisUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`not a Redis URL: ${JSON.stringify(text)} (redis://host:port)`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") throw new Error(`not a Redis URL: ${JSON.stringify(text)} (redis://host:port)`);
  return text;
}

/** A connection that retries for as long as it takes (what BullMQ's workers need). */
export function connect(url: string): Redis {
  return new Redis(checkRedisUrl(url), { maxRetriesPerRequest: null, lazyConnect: true });
}

/** Connects, or throws when Redis does not answer within timeoutMs (at start-up a wrong URL
 *  should say so rather than wait forever). Later connection errors are the caller's to
 *  report: the connection retries and its commands wait. */
export async function connectOrFail(url: string, timeoutMs = 5000): Promise<Redis> {
  const redis = connect(url);
  let firstError: Error | undefined;
  redis.on("error", (err: Error) => (firstError ??= err));
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.connect().then(() => redis.ping()),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs / 1000} s`)), timeoutMs);
      }),
    ]);
  } catch (err) {
    redis.disconnect();
    throw new Error(`cannot reach Redis at ${url}: ${(firstError ?? (err as Error)).message}`);
  } finally {
    clearTimeout(timer);
  }
  return redis;
}
