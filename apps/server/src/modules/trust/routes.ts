import { trustEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser } from "../../plugins/auth-guard.ts";
import { route } from "../../plugins/endpoint-route.ts";
import {
  blockWorker,
  hideBuyer,
  listBlocks,
  listHiddenBuyers,
  reputationOfUser,
  unblockWorker,
  unhideBuyer,
} from "./service.ts";

export const trustRoutes: FastifyPluginAsyncZod = async (app) => {
  route(app, endpoints.getWorkerReputation, (request) => reputationOfUser(app.db, request.params.id));

  route(app, endpoints.blockWorker, async (request) =>
    blockWorker(app.db, {
      buyerId: (await currentUser(request)).id,
      workerId: request.body.worker_id,
      note: request.body.note,
      now: app.clock(),
    }),
  );

  route(app, endpoints.unblockWorker, async (request) =>
    unblockWorker(app.db, { buyerId: (await currentUser(request)).id, workerId: request.params.worker_id }),
  );

  route(app, endpoints.listBlockedWorkers, async (request) =>
    listBlocks(app.db, (await currentUser(request)).id, request.query),
  );

  route(app, endpoints.hideBuyer, async (request) =>
    hideBuyer(app.db, {
      workerId: (await currentUser(request)).id,
      buyerId: request.body.buyer_id,
      now: app.clock(),
    }),
  );

  route(app, endpoints.unhideBuyer, async (request) =>
    unhideBuyer(app.db, { workerId: (await currentUser(request)).id, buyerId: request.params.buyer_id }),
  );

  route(app, endpoints.listHiddenBuyers, async (request) =>
    listHiddenBuyers(app.db, (await currentUser(request)).id, request.query),
  );
};
