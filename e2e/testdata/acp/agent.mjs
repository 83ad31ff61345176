// A small ACP agent on the TypeScript SDK (@agentclientprotocol/sdk 2.4),
// for fawn to host with --agent. TestHostedTypeScriptAgent runs it:
//
//   node agent.mjs SDK_DIR
//
// SDK_DIR is the npm prefix the SDK is installed under. Each prompt: read
// notes.txt through fs/read_text_file, announce an edit of it and write it
// through fs/write_text_file, run a command through terminal/* (shown by a
// call that names the terminal), and say what it saw.
import { createRequire } from "node:module";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";

const [sdkDir] = process.argv.slice(2);
if (!sdkDir) {
  console.error("usage: node agent.mjs SDK_DIR");
  process.exit(2);
}
const require = createRequire(sdkDir + "/package.json");
const acp = await import(pathToFileURL(require.resolve("@agentclientprotocol/sdk")).href);
const { agent, methods, ndJsonStream } = acp;

let cwd = "";
let caps = {};
const app = agent({ name: "fawn-test-agent" })
  .onRequest(methods.agent.initialize, ({ params }) => {
    caps = params.clientCapabilities ?? {};
    return { protocolVersion: 1, agentCapabilities: {}, authMethods: [] };
  })
  .onRequest(methods.agent.session.new, ({ params }) => {
    cwd = params.cwd;
    return { sessionId: "ts-1" };
  })
  .onNotification(methods.agent.session.cancel, () => {})
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const sessionId = params.sessionId;
    const update = (u) => client.notify(methods.client.session.update, { sessionId, update: u });
    const file = path.join(cwd, "notes.txt");
    const before = (await client.request(methods.client.fs.readTextFile, { sessionId, path: file })).content;
    const after = before.replace("draft", "final");
    await update({ sessionUpdate: "tool_call", toolCallId: "w1", title: "Edit notes.txt", kind: "edit", status: "in_progress",
      locations: [{ path: file }], content: [{ type: "diff", path: file, oldText: before, newText: after }] });
    await client.request(methods.client.fs.writeTextFile, { sessionId, path: file, content: after });
    await update({ sessionUpdate: "tool_call_update", toolCallId: "w1", status: "completed" });

    let said = "no terminal";
    if (caps.terminal) {
      const term = await client.createTerminal({ sessionId, command: "echo", args: ["from-the-ts-agent"] });
      await update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "echo from-the-ts-agent", kind: "execute", status: "in_progress",
        content: [{ type: "terminal", terminalId: term.id }] });
      const exit = await term.waitForExit();
      const out = await term.currentOutput();
      await term.release();
      await update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: exit.exitCode === 0 ? "completed" : "failed" });
      said = `exit ${exit.exitCode}, output ${JSON.stringify(out.output.trim())}`;
    }
    await update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `ts agent read ${JSON.stringify(before.trim())}; ${said}` } });
    return { stopReason: "end_turn" };
  });

const conn = app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await conn.closed;
