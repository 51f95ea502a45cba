import { startTestServices, type TestServices } from "../test/services.ts";

/**
 * Fresh services for one benchmark, and the app's cached configuration, database client, S3
 * client and token signing keys pointed at them: benchmarks run one after another in one process,
 * and each stops its services when it ends.
 */
export async function startBenchServices(options: { databaseName: string; tmpPrefix: string; env?: Record<string, string> }): Promise<TestServices> {
  const services = await startTestServices({ ...options, durableDatabase: true });
  const set = { ...services.env, ...options.env };
  // What the variables were before, put back at stop: the next benchmark's services read
  // DATABASE_URL as the server to make their database on, never this one's database.
  const previous = Object.fromEntries(Object.keys(set).map((name) => [name, process.env[name]]));
  Object.assign(process.env, set);
  const [{ resetEnvForTests }, { resetDbClientForTests }, { resetS3ClientForTests }, { resetSigningKeyCacheForTests }] = await Promise.all([
    import("@/lib/env"),
    import("@/lib/db"),
    import("@/lib/storage/s3"),
    import("@/lib/oauth/signing-keys"),
  ]);
  resetEnvForTests();
  await resetDbClientForTests();
  resetS3ClientForTests();
  // Tokens the seed issues are signed with this database's key, not one cached from the last.
  resetSigningKeyCacheForTests();
  return {
    ...services,
    // The clients let go of their connections before the servers behind them stop.
    async stop() {
      await resetDbClientForTests();
      resetS3ClientForTests();
      await services.stop();
      for (const [name, value] of Object.entries(previous)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}
