import { trustEndpoints as endpoints } from "@taskmint/shared";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
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

  route(app, endpoints.blockWorker, ({ sessionUser, body, now }) =>
    blockWorker(app.db, { buyerId: sessionUser.id, workerId: body.worker_id, note: body.note, now }),
  );

  route(app, endpoints.unblockWorker, ({ sessionUser, params }) =>
    unblockWorker(app.db, { buyerId: sessionUser.id, workerId: params.worker_id }),
  );

  route(app, endpoints.listBlockedWorkers, ({ sessionUser, query }) =>
    listBlocks(app.db, sessionUser.id, query),
  );

  route(app, endpoints.hideBuyer, ({ sessionUser, body, now }) =>
    hideBuyer(app.db, { workerId: sessionUser.id, buyerId: body.buyer_id, now }),
  );

  route(app, endpoints.unhideBuyer, ({ sessionUser, params }) =>
    unhideBuyer(app.db, { workerId: sessionUser.id, buyerId: params.buyer_id }),
  );

  route(app, endpoints.listHiddenBuyers, ({ sessionUser, query }) =>
    listHiddenBuyers(app.db, sessionUser.id, query),
  );
};
