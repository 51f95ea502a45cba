/**
 * Runs tasks in waves of at most `size`: the tasks queued together start together, and the next
 * wave starts once every task of the current one has settled.
 *
 * For requests to one receiver (a webhook's deliveries), a wave's requests leave in one turn of
 * the event loop and their answers come back together, so the receiver's process and this one
 * wake once per wave instead of once per request, as a sliding window (a new request as each
 * answer arrives) makes them. The most requests out at once is the same `size`.
 */
export function inWaves(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`wave size must be a positive integer, got ${size}`);
  const queued: Array<() => void> = [];
  let running = 0;
  const startWave = () => {
    for (const start of queued.splice(0, size)) start();
  };
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queued.push(() => {
        running += 1;
        let result: Promise<T>;
        try {
          result = task();
        } catch (error) {
          result = Promise.reject(error);
        }
        result.then(resolve, reject).finally(() => {
          running -= 1;
          if (running === 0) startWave();
        });
      });
      // The first task queued while nothing runs: the wave starts once the tasks queued in the
      // same turn have joined it.
      if (running === 0 && queued.length === 1) queueMicrotask(startWave);
    });
}
