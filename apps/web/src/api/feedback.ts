/**
 * Ratings of search results through the Feedback API: `POST /v1/feedback` stores one
 * (and moves the fusion weights), `GET /v1/feedback?search_id=` reads a search's ratings
 * back so the dashboard can show which buttons the caller already pressed.
 */
import type { FeedbackListResponse, FeedbackRateResponse } from '@sextant/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

export type Rating = -1 | 0 | 1;

export async function rateResult(searchId: string, itemId: string, rating: Rating): Promise<FeedbackRateResponse> {
  return api<FeedbackRateResponse>('/v1/feedback', { method: 'POST', body: { search_id: searchId, item_id: itemId, rating } });
}

/** The caller's own ratings of one search (item id -> -1/0/1). */
export function useMyRatings(searchId: string | null) {
  return useQuery({
    queryKey: ['feedback', searchId],
    enabled: Boolean(searchId),
    staleTime: 60_000,
    queryFn: async (): Promise<Record<string, Rating>> => {
      const res = await api<FeedbackListResponse>(`/v1/feedback?search_id=${encodeURIComponent(searchId!)}`);
      return Object.fromEntries(res.ratings.filter((r) => r.mine).map((r) => [r.item_id, Math.sign(r.rating) as Rating]));
    },
  });
}

export function useRecordRatingInCache() {
  const qc = useQueryClient();
  return (searchId: string, itemId: string, rating: Rating) => qc.setQueryData<Record<string, Rating>>(['feedback', searchId], (m) => ({ ...(m ?? {}), [itemId]: rating }));
}
