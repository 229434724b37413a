import type { NextFunction, Request, Response } from 'express';
import type { MetricsService } from './metrics.service';

/**
 * Express middleware (not a Nest interceptor) so 404s, 413s from the body parser and
 * other pre-routing failures are measured too. Routes are labelled by their pattern,
 * never the raw URL, to keep label cardinality bounded.
 */
export function httpMetricsMiddleware(metrics: MetricsService) {
  return (req: Request, res: Response, next: NextFunction) => {
    const end = metrics.httpRequestDuration.startTimer();
    res.on('finish', () => {
      const routePath = (req.route as { path?: string } | undefined)?.path;
      const route = routePath ? `${req.baseUrl ?? ''}${routePath}` : 'unmatched';
      end({ method: req.method, route, status_code: String(res.statusCode) });
    });
    next();
  };
}
