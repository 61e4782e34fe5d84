import net from "node:net";

/** A TCP proxy in front of PostgreSQL that a test takes away and brings back: a real stand-in for an outage or a failover. */
export interface TcpProxy {
  /** DATABASE_URL through the proxy. */
  url: string;
  /** Refuses new connections (ECONNREFUSED) and, with `dropOpen`, cuts the open ones as a network failure would. */
  takeAway(options: { dropOpen: boolean }): void;
  /**
   * A network gone silent: connections are still accepted and bytes still taken (the kernel
   * acknowledges them), but nothing passes either way, and no reset tells anyone.
   */
  goSilent(): void;
  /** Accepts connections again, on the same port; after goSilent, lets the held bytes through, as TCP delivers them once the network is back. */
  bringBack(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(databaseUrl: string): Promise<TcpProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[client: net.Socket, upstream: net.Socket]>();
  let silent = false;
  const flow = ([client, upstream]: [net.Socket, net.Socket]) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  // A paused socket reads nothing more: what arrives waits in the kernel, as unacknowledged data would.
  const hold = ([client, upstream]: [net.Socket, net.Socket]) => {
    client.unpipe(upstream).pause();
    upstream.unpipe(client).pause();
  };
  const pipe = (client: net.Socket) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    for (const socket of pair) {
      sockets.add(socket);
      socket.on("error", () => socket.destroy());
      socket.on("close", () => {
        sockets.delete(socket);
        pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      });
    }
    if (silent) hold(pair);
    else flow(pair);
  };
  const listen = (port: number) =>
    new Promise<net.Server>((resolve, reject) => {
      const server = net.createServer(pipe);
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve(server));
    });

  let server: net.Server | null = await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${port}`;
  const takeAway = ({ dropOpen }: { dropOpen: boolean }) => {
    // close() stops listening at once; its callback would wait for the open connections.
    server?.close();
    server = null;
    if (dropOpen) for (const socket of sockets) socket.destroy();
  };
  return {
    url: url.toString(),
    takeAway,
    goSilent() {
      silent = true;
      pairs.forEach(hold);
    },
    async bringBack() {
      if (silent) {
        silent = false;
        pairs.forEach(flow);
      }
      server ??= await listen(port);
    },
    async close() {
      takeAway({ dropOpen: true });
    },
  };
}
