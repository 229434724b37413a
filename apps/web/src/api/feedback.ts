/**
 * Ratings of search results: `POST /v1/feedback` and `GET /v1/feedback?search_id=`
 * (the Feedback module). Servers that predate that module answer "Cannot POST
 * /v1/feedback"; then the rating is kept in this browser only (a placeholder, shown as
 * "saved locally") so the buttons still work and nothing is lost silently.
 */
import type { FeedbackListResponse, FeedbackRateResponse } from '@sextant/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from './client';

export type Rating = -1 | 0 | 1;
export interface RatingOutcome {
  rating: Rating;
  stored: 'server' | 'local';
  weightsVersion?: number;
}

const LOCAL_KEY = 'sextant.localRatings';
const routeMissing = (err: unknown) => err instanceof ApiError && err.status === 404 && /^Cannot (POST|GET) \/v1\/feedback/.test(err.message);

function readLocal(): Record<string, Rating> {
  try {
    return JSON.parse(window.localStorage.getItem(LOCAL_KEY) ?? '{}') as Record<string, Rating>;
  } catch {
    return {};
  }
}

export async function rateResult(searchId: string, itemId: string, rating: Rating): Promise<RatingOutcome> {
  try {
    const res = await api<FeedbackRateResponse>('/v1/feedback', { method: 'POST', body: { search_id: searchId, item_id: itemId, rating } });
    return { rating: Math.sign(res.rating) as Rating, stored: 'server', weightsVersion: res.learning.weights_version };
  } catch (err) {
    if (!routeMissing(err)) throw err;
    const all = readLocal();
    all[`${searchId} ${itemId}`] = rating;
    window.localStorage.setItem(LOCAL_KEY, JSON.stringify(all));
    return { rating, stored: 'local' };
  }
}

/** The caller's own ratings of one search (item id -> -1/0/1), to show pressed buttons. */
export function useMyRatings(searchId: string | null) {
  return useQuery({
    queryKey: ['feedback', searchId],
    enabled: Boolean(searchId),
    staleTime: 60_000,
    queryFn: async (): Promise<Record<string, Rating>> => {
      try {
        const res = await api<FeedbackListResponse>(`/v1/feedback?search_id=${encodeURIComponent(searchId!)}`);
        return Object.fromEntries(res.ratings.filter((r) => r.mine).map((r) => [r.item_id, Math.sign(r.rating) as Rating]));
      } catch (err) {
        if (!routeMissing(err)) throw err;
        const prefix = `${searchId} `;
        return Object.fromEntries(Object.entries(readLocal()).flatMap(([k, v]) => (k.startsWith(prefix) ? [[k.slice(prefix.length), v]] : [])));
      }
    },
  });
}

export function useRecordRatingInCache() {
  const qc = useQueryClient();
  return (searchId: string, itemId: string, rating: Rating) => qc.setQueryData<Record<string, Rating>>(['feedback', searchId], (m) => ({ ...(m ?? {}), [itemId]: rating }));
}
