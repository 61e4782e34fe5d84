import {
  parse,
  protocol,
  type PGlite,
  type QueryOptions,
  type Results,
  type Transaction,
} from "@electric-sql/pglite";

type BackendMessage = Awaited<ReturnType<PGlite["execProtocolStream"]>>[number];

interface Statement {
  name: string;
  /** The parameters' type oids, as PostgreSQL inferred them. */
  parameterTypes: number[];
  /** The statement's RowDescription (or NoData), which a bound portal of it would repeat. */
  description: BackendMessage[];
}

/** How many statements stay prepared: each keeps its plans in PGlite's memory, which never shrinks. */
const CACHED_STATEMENTS = 200;

const concat = (parts: Uint8Array[]) => {
  const message = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
};

// SQLSTATE feature_not_supported, "cached plan must not change result type": the schema changed
// under a prepared statement (a migration in a test, say); preparing it again answers it.
const isStalePlan = (error: unknown) =>
  (error as { code?: unknown }).code === "0A000" && String((error as Error).message).includes("cached plan");

/**
 * A PGlite client that runs every parameterized query as a named prepared statement, prepared the
 * first time its text is seen and kept for the most recent CACHED_STATEMENTS texts, as node-postgres
 * does for our named statements on PostgreSQL (decision 030). A query without parameters (DDL,
 * ANALYZE, a migration's statements) runs as PGlite runs it.
 *
 * Why: PGlite's `query` parses, analyzes and plans each statement again, in six calls into its
 * WebAssembly (parse, describe, bind, describe, execute, sync). On the mixed load that was most
 * of the embedded database's time. A prepared statement is bound and executed in one call, and
 * PostgreSQL plans it as it does prepared statements (a generic plan once it is no dearer).
 */
export function withPreparedStatements(client: PGlite): PGlite {
  const statements = new Map<string, Statement>();
  let named = 0;

  /** The statement for `text`, prepared now if it is not; the least recently used one goes. */
  async function statementFor(text: string): Promise<Statement> {
    const cached = statements.get(text);
    if (cached) {
      // Map order is insertion order: moving it to the end keeps the map in recency order.
      statements.delete(text);
      statements.set(text, cached);
      return cached;
    }
    named += 1;
    const name = `pglite_${named}`;
    const messages = await client.execProtocolStream(
      concat([
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: "S", name }),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement: Statement = {
      name,
      parameterTypes: parse.parseDescribeStatementResults(messages),
      description: messages.filter(
        (message) => message.name === "rowDescription" || message.name === "noData",
      ),
    };
    statements.set(text, statement);
    if (statements.size > CACHED_STATEMENTS) {
      const [oldestText, oldest] = statements.entries().next().value!;
      statements.delete(oldestText);
      await client.execProtocolStream(
        concat([protocol.serialize.close({ type: "S", name: oldest.name }), protocol.serialize.sync()]),
        { syncToFs: false },
      );
    }
    return statement;
  }

  async function execute(text: string, params: unknown[], options: QueryOptions | undefined) {
    const statement = await statementFor(text);
    const values = params.map((param, index) => {
      if (param === null || param === undefined) return null;
      const serialize = client.serializers[statement.parameterTypes[index]!];
      return serialize ? serialize(param) : (param as { toString(): string }).toString();
    });
    const messages = await client.execProtocolStream(
      concat([
        protocol.serialize.bind({ statement: statement.name, values }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    return parse.parseResults([...statement.description, ...messages], client.parsers, options)[0]!;
  }

  /** Runs `text` prepared, inside PGlite's query lock; once more if the schema changed under it. */
  async function query<Row>(text: string, params: unknown[] = [], options?: QueryOptions) {
    return client._runExclusiveQuery(async () => {
      try {
        return (await execute(text, params, options)) as Results<Row>;
      } catch (error) {
        if (!isStalePlan(error)) throw error;
        statements.delete(text);
        return (await execute(text, params, options)) as Results<Row>;
      }
    });
  }

  const inTransaction = (tx: Transaction): Transaction =>
    Object.create(tx, {
      query: {
        value: <Row>(text: string, params?: unknown[], options?: QueryOptions) => {
          if (!params?.length) return tx.query<Row>(text, params, options);
          if (tx.closed) throw new Error("Transaction is closed");
          return query<Row>(text, params, options);
        },
      },
    }) as Transaction;

  // As PGlite's own query: not while a transaction runs, and written through afterwards.
  const queryOutsideTransactions = async <Row>(text: string, params?: unknown[], options?: QueryOptions) => {
    if (!params?.length) return client.query<Row>(text, params, options);
    const result = await client._runExclusiveTransaction(() => query<Row>(text, params, options));
    await client.syncToFs();
    return result;
  };
  const transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    client.transaction((tx) => callback(inTransaction(tx)));

  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === "query") return queryOutsideTransactions;
      if (property === "transaction") return transaction;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
