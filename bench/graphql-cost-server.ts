/**
 * The graphql-cost section's server (bench/graphql-cost.ts starts it with the service's settings):
 * the API's app made once per step, each on a port of its own: Yoga with the schema alone, then
 * with the GraphQL endpoint's plugins added one at a time in their order, so that the last is the
 * whole service (whose REST routes are the twins). One process for every step, so that the CPU a
 * run of one step uses is read from one process while the others are idle. Prints one JSON line:
 * the steps' names and ports.
 */
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { loadApiConfig } from "../src/api/config.js";
import { openDatabase } from "../src/db.js";
import type { NamedPlugin } from "../src/graphql/yoga.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/logger.js";
import { openRedis, waitForRedis } from "../src/transport/redis.js";

const config = loadApiConfig();
const logger = createLogger({ level: "silent" }, "bench");
openDatabase(config.db, logger);
const redis = openRedis(config.redis, logger);
if (!(await waitForRedis(redis, config.redis, 30_000, logger))) throw new Error("bench: Redis did not answer");

/** Serves `fetch` on a free loopback port. serve() installs its Response globally before any app is made (src/api/server.ts). */
const served = (fetch: (request: Request) => Response | Promise<Response>) =>
  new Promise<number>((resolve) => serve({ fetch, hostname: "127.0.0.1", port: 0 }, (info: AddressInfo) => resolve(info.port)));

type App = ReturnType<typeof createApp>;
let names: string[] = [];
const appWith = (kept: (all: NamedPlugin[]) => NamedPlugin[]) => createApp({ config, logger, redis, graphqlPlugins: kept });
let schemaAlone: App | undefined;
const ports = [await served((request) => schemaAlone!.fetch(request))];
schemaAlone = appWith((all) => ((names = all.map(({ name }) => name)), []));
const apps = [schemaAlone];
for (let kept = 1; kept <= names.length; kept++) apps.push(appWith((all) => all.slice(0, kept)));
for (const app of apps.slice(1)) ports.push(await served(app.fetch));
console.log(JSON.stringify({ steps: ["schema alone", ...names.map((name) => `+ ${name}`)], ports }));
