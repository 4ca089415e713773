/**
 * The baseline of the API's read budget: a bare Fastify server answering a small JSON
 * body, no session, no database, in its own process like the product's. Its throughput on this machine is
 * what "at least 25 % of a bare Fastify hello" is measured against, in the same run.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
