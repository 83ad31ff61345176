// A small ACP client on the TypeScript SDK (@agentclientprotocol/sdk 2.4),
// driving `fawn acp` as an editor would. TestACPTypeScriptClient runs it:
//
//   node client.mjs SDK_DIR PROJECT -- FAWN ARGS...
//
// SDK_DIR is the npm prefix the SDK is installed under. It prints one JSON
// object: what it saw, for the Go test to check.
//
// First connection: initialize, session/new, a prompt whose turn edits a
// file and runs a command (each permission request answered "allow once"),
// then a second prompt cancelled while the model streams. Second
// connection: session/load of the same session, its replay recorded.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";

const [sdkDir, project, sep, fawn, ...fawnArgs] = process.argv.slice(2);
if (sep !== "--" || !fawn) {
  console.error("usage: node client.mjs SDK_DIR PROJECT -- FAWN ARGS...");
  process.exit(2);
}
const require = createRequire(sdkDir + "/package.json");
const acp = await import(pathToFileURL(require.resolve("@agentclientprotocol/sdk")).href);
const { client, methods, ndJsonStream } = acp;

// connection runs op against a fresh `fawn acp`, recording every update.
async function connection(op) {
  const child = spawn(fawn, fawnArgs, { stdio: ["pipe", "pipe", "inherit"] });
  const updates = [];
  const asks = [];
  let onUpdate = () => {};
  const app = client({ name: "fawn-test-client" })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params);
      onUpdate(params);
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      asks.push(params);
      const once = params.options.find((o) => o.kind === "allow_once");
      return { outcome: { outcome: "selected", optionId: once.optionId } };
    });
  const stream = ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  try {
    return await app.connectWith(stream, (ctx) => op(ctx, { updates, asks, setOnUpdate: (f) => (onUpdate = f) }));
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

const out = {};
const first = await connection(async (ctx, seen) => {
  const init = await ctx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  out.protocolVersion = init.protocolVersion;
  out.loadSession = init.agentCapabilities?.loadSession === true;
  out.images = init.agentCapabilities?.promptCapabilities?.image === true;
  const { sessionId, modes } = await ctx.request(methods.agent.session.new, { cwd: project, mcpServers: [] });
  out.sessionId = sessionId;
  out.mode = modes?.currentModeId;
  const r1 = await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "write a.txt and show it" }] });
  out.stop1 = r1.stopReason;
  out.asks = seen.asks.map((a) => a.toolCall.toolCallId);
  out.turn1 = seen.updates.map((u) => u.update);

  // The second turn streams slowly; it is cancelled once text arrives.
  const n = seen.updates.length;
  let cancelled = false;
  seen.setOnUpdate((u) => {
    if (!cancelled && u.update.sessionUpdate === "agent_message_chunk") {
      cancelled = true;
      ctx.notify(methods.agent.session.cancel, { sessionId });
    }
  });
  const r2 = await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "tell me a long story" }] });
  out.stop2 = r2.stopReason;
  out.turn2 = seen.updates.slice(n).map((u) => u.update);
  return sessionId;
});

await connection(async (ctx, seen) => {
  await ctx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  await ctx.request(methods.agent.session.load, { sessionId: first, cwd: project, mcpServers: [] });
  out.replay = seen.updates.map((u) => u.update);
});

console.log(JSON.stringify(out));
