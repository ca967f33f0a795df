// An agent's program on Quarry's MCP server, written with the official TypeScript SDK (@modelcontextprotocol/sdk) as
// its README shows: the Streamable HTTP transport, an API token in the Authorization header, nothing else.
// In: MCP_URL, TOKEN (chat scope), READ_TOKEN (read scope), DATASET_URL, QUESTION.
// Out: one line of JSON on stdout with what each step answered.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const env = process.env;
const deadline = setTimeout(() => { console.error('timed out'); process.exit(1); }, 90_000);

async function connect(token) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(env.MCP_URL), { requestInit: { headers } });
  const client = new Client({ name: 'quarry-test-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A tool's structured answer, or its error's text. */
async function call(client, name, args, options) {
  const result = await client.callTool({ name, arguments: args }, undefined, options);
  return result.isError ? { error: result.content[0].text } : result.structuredContent;
}

async function refusal(promise) {
  try {
    await promise;
    return { refused: false };
  } catch (e) {
    return { refused: true, code: e.code ?? null, message: String(e.message) };
  }
}

const out = {};
out.noToken = await refusal(connect(null));
out.badToken = await refusal(connect('qt_not-a-token'));

const client = await connect(env.TOKEN);
out.version = client.getServerVersion();
const tools = (await client.listTools()).tools;
out.tools = tools.map(t => ({ name: t.name, input: t.inputSchema.type, output: t.outputSchema?.type ?? null }));

const conversation = await call(client, 'create_conversation', { title: 'From Node' });
out.conversation = conversation;
out.dataset = await call(client, 'add_dataset', { conversation_id: conversation.id, url: env.DATASET_URL });
out.described = await call(client, 'describe_dataset', { conversation_id: conversation.id, dataset: 'table1' });
out.sql = await call(client, 'run_sql', { conversation_id: conversation.id, sql: 'SELECT count(*) AS n FROM table1' });
out.sqlError = await call(client, 'run_sql', { conversation_id: conversation.id, sql: 'SELECT nope FROM table1' });
out.progress = [];
out.answer = await call(client, 'ask', { conversation_id: conversation.id, question: env.QUESTION },
  { onprogress: p => out.progress.push(p.message), timeout: 60_000 });
const rows = await client.readResource({ uri: `quarry://results/${out.answer.result_ids[0]}/rows.csv` });
out.csv = rows.contents[0].text;
out.templates = (await client.listResourceTemplates()).resourceTemplates.map(t => t.uriTemplate);
out.unknownTool = await refusal(client.callTool({ name: 'drop_everything', arguments: {} }));
out.missingResource = await refusal(client.readResource({ uri: 'quarry://results/nothing/rows.csv' }));
await client.close();

const reader = await connect(env.READ_TOKEN);
out.readerList = await call(reader, 'list_conversations', {});
out.readerSql = await call(reader, 'run_sql', { conversation_id: conversation.id, sql: 'SELECT 1' });
await reader.close();

clearTimeout(deadline);
console.log(JSON.stringify(out));
