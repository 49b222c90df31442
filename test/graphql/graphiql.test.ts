/**
 * GraphiQL's page module holds GraphiQL's scripts and styles (9 MB of JavaScript): an API with
 * GraphiQL off never loads it, and one with GraphiQL on loads it when a browser first asks for the
 * page, not at start.
 */
import { describe, expect, it, onTestFinished, vi } from "vitest";
import type { App } from "../../src/http/app.js";
import { createTestApp } from "../test-app.js";

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock("@graphql-yoga/render-graphiql", async (importOriginal) => {
  loads.count += 1;
  return importOriginal();
});

const browserVisit = (app: App) => app.fetch(new Request("http://test/graphql", { headers: { accept: "text/html" } }));

// In this order: once loaded, a module stays loaded for the rest of the file.
describe("GraphiQL's page module", () => {
  it("is not loaded by an API with GraphiQL off, even when a browser asks for the page", async () => {
    const app = createTestApp({ graphiql: false });
    onTestFinished(() => app.dispose());
    const answer = await browserVisit(app);
    expect(await answer.text()).not.toMatch(/graphiql/i);
    expect(loads.count).toBe(0);
  });

  it("is loaded by an API with GraphiQL on when a browser first asks for the page, which is GraphiQL", async () => {
    const app = createTestApp({ graphiql: true });
    onTestFinished(() => app.dispose());
    expect(loads.count).toBe(0);
    const answer = await browserVisit(app);
    expect([answer.status, answer.headers.get("content-type")]).toEqual([200, "text/html"]);
    expect(await answer.text()).toContain("YogaGraphiQL.renderYogaGraphiQL");
    expect(loads.count).toBe(1);
    await browserVisit(app);
    expect(loads.count).toBe(1);
  });
});
