/**
 * The user name the service token authenticates as, on every service: what a peer's calls run as,
 * and the one caller besides the operators that may decide an approval (it carries the operator's
 * decision on to the worker that waits for it).
 */
export const SERVICE_USER = 'switchboard-service';
