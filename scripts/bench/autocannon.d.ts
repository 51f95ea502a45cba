// The part of autocannon 9's API the benchmarks use (the package ships no types).
declare module "autocannon" {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    max: number;
  }
  export interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    /** Responses by status code. */
    statusCodeStats: Record<string, { count: number }>;
    resets: number;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Requests per second over all connections (a steady load instead of as fast as possible). */
    overallRate?: number;
    /** Stop after this many requests (instead of after `duration`). */
    amount?: number;
    /** Seconds before a request counts as timed out (default 10). */
    timeout?: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
