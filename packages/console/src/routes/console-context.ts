import type { Principal } from '@switchboard/agent';
import type { OperatorSide } from '@switchboard/host/approvals';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { SafeHtml } from '../html/html.ts';
import { page } from '../pages/layout.ts';

/** The operator a request is signed in as (set by the session check), and their form token. */
export interface Signed {
  operator: Principal;
  token: string;
  csrf: string;
}

/** The signed-in operator of a request past the session check. */
export const signed = (res: Response): Signed => res.locals.signed as Signed;

/** The console's base path (`/console`), for links. */
export const base = (req: Request): string => req.baseUrl;

/** Sends a whole page of the console. */
export function sendPage(res: Response, status: number, markup: string): void {
  res.status(status).type('html').send(markup);
}

/** Sends a page framed for the signed-in operator: the navigation, who they are, sign-out. */
export function sendFramed(req: Request, res: Response, status: number, title: string, body: SafeHtml): void {
  const { operator, csrf } = signed(res);
  sendPage(res, status, page({ base: base(req), title, operator: { id: operator.id, csrf }, body }));
}

/** An async route whose failure goes to the router's error handler. */
export const route =
  (handler: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req: Request, res: Response, next: NextFunction) => {
    handler(req, res).catch(next);
  };

/** What the console's routes share: the host's operator side. */
export type ConsoleSide = OperatorSide;

/** The `:id` of a route's path. */
export function idOf(req: Request): string {
  const { id } = req.params;
  return typeof id === 'string' ? id : '';
}
