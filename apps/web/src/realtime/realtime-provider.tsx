/**
 * One socket.io connection per tab, typed by the contracts' event maps. It feeds the
 * rest of the dashboard: presence, an activity feed (seeded from REST with what happened
 * before the tab opened, then live), job frames written straight into the `['jobs']` query
 * cache, and weights updates. After any (re)connection that the server could not recover,
 * job state is re-read over REST (`GET /v1/jobs`).
 */
import type { ClientToServerEvents, FeedbackRecentResponse, FeedbackRecordedEvent, IndexJob, PresenceEvent, ServerToClientEvents, WeightsResponse, WeightsUpdatedEvent } from '@sextant/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { io, type Socket } from 'socket.io-client';
import { api } from '../api/client';
import { mergeJob, queryKeys } from '../api/queries';
import { activityFromHistory, feedbackActivity, jobActivity, mergeActivity, weightsActivity, type ActivityDraft } from './activity-history';

export type SextantSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'refused';

export interface ActivityItem {
  id: string;
  /** Identifies the event (a job's start or end, a weights version) so history and live frames do not repeat it. */
  key?: string;
  at: number;
  kind: 'index' | 'feedback' | 'weights' | 'presence';
  /** `{repo}` in the text is replaced by the repository's current name when shown. */
  text: string;
  repoId?: string;
  tone?: 'ok' | 'error';
  /** A "not relevant" rating (drawn with a thumb down). */
  negative?: boolean;
}

interface RealtimeState {
  socket: SextantSocket | null;
  status: ConnectionStatus;
  statusDetail: string | null;
  presence: PresenceEvent['members'];
  activity: ActivityItem[];
  /** Bumped on every `weights:updated`, with the event, so views can refetch or append. */
  lastWeights: WeightsUpdatedEvent | null;
  lastFeedback: FeedbackRecordedEvent | null;
}

const RealtimeContext = createContext<RealtimeState>({ socket: null, status: 'connecting', statusDetail: null, presence: [], activity: [], lastWeights: null, lastFeedback: null });

export const useRealtime = () => useContext(RealtimeContext);

const MAX_ACTIVITY = 40;

export function RealtimeProvider({ token, children }: { token: string | null; children: ReactNode }) {
  const qc = useQueryClient();
  const [socket, setSocket] = useState<SextantSocket | null>(null);
  const [status, setStatus] = useState<ConnectionStatus>('connecting');
  const [statusDetail, setStatusDetail] = useState<string | null>(null);
  const [presence, setPresence] = useState<PresenceEvent['members']>([]);
  const [activity, setActivity] = useState<ActivityItem[]>([]);
  const [lastWeights, setLastWeights] = useState<WeightsUpdatedEvent | null>(null);
  const [lastFeedback, setLastFeedback] = useState<FeedbackRecordedEvent | null>(null);

  useEffect(() => {
    const s: SextantSocket = io({ auth: token ? { token } : {}, reconnectionDelayMax: 5000 });
    setSocket(s);
    setStatus('connecting');
    const add = (items: ActivityDraft[]) => setActivity((a) => mergeActivity(a, items.map((i) => ({ ...i, id: i.key })), MAX_ACTIVITY));
    // What the team did before this tab opened; a server without the weights API still gives the jobs.
    let closed = false;
    void Promise.all([
      api<{ jobs: IndexJob[] }>('/v1/jobs').then((r) => r.jobs).catch(() => []),
      api<WeightsResponse>('/v1/weights?history_limit=20').catch(() => null),
      api<FeedbackRecentResponse>('/v1/feedback/recent?limit=20').then((r) => r.ratings).catch(() => []),
    ]).then(([jobs, weights, ratings]) => {
      if (!closed) add(activityFromHistory(jobs, weights, MAX_ACTIVITY, ratings));
    });
    const seenJobs = new Set<string>();
    // Only into a list read from the server: a list made of live frames alone would hide older jobs (returning undefined leaves the cache as it is).
    const applyJob = (job: IndexJob) => qc.setQueryData<IndexJob[]>(queryKeys.jobs, (jobs) => (jobs ? mergeJob(jobs, job) : undefined));

    s.on('connect', () => {
      setStatus('connected');
      setStatusDetail(null);
      // Missed frames cannot be replayed unless the server recovered the session: re-read jobs.
      if (!s.recovered) {
        void qc.invalidateQueries({ queryKey: queryKeys.jobs });
        void qc.invalidateQueries({ queryKey: queryKeys.repos });
      }
    });
    let retry: ReturnType<typeof setTimeout> | undefined;
    s.on('disconnect', (reason) => {
      setStatus(reason === 'io client disconnect' ? 'connecting' : 'reconnecting');
      setStatusDetail(reason);
      // socket.io does not retry after a server-side disconnect (a restart or a rolling deploy); we do,
      // and a handshake the server refuses then ends as 'refused'.
      if (reason === 'io server disconnect') retry = setTimeout(() => s.connect(), 1000);
    });
    s.on('connect_error', (err: Error & { data?: { message?: string } }) => {
      // Refused handshakes (bad key) are not retried by socket.io; transport errors are.
      setStatus(s.active ? 'reconnecting' : 'refused');
      setStatusDetail(err.data?.message ?? err.message);
    });
    s.on('presence', (e) => setPresence(e.members));
    s.on('index:progress', (e) => {
      applyJob(e.job);
      if (!seenJobs.has(e.job.id)) {
        seenJobs.add(e.job.id);
        const started = jobActivity({ ...e.job, status: 'running' });
        if (started) add([{ ...started, at: Date.now() }]);
        void qc.invalidateQueries({ queryKey: queryKeys.repos }); // a repository a teammate just added
      }
    });
    const jobEnded = (job: IndexJob) => {
      applyJob(job);
      void qc.invalidateQueries({ queryKey: queryKeys.repos });
      const ended = jobActivity(job);
      if (ended) add([{ ...ended, at: Date.now() }]);
    };
    s.on('index:done', (e) => jobEnded(e.job));
    s.on('index:error', (e) => jobEnded(e.job));
    s.on('feedback:recorded', (e) => {
      setLastFeedback(e);
      add([feedbackActivity(e)]);
    });
    s.on('weights:updated', (e) => {
      setLastWeights(e);
      void qc.invalidateQueries({ queryKey: queryKeys.weights });
      add([weightsActivity(e, Date.now())]);
    });
    return () => {
      closed = true;
      clearTimeout(retry);
      s.removeAllListeners();
      s.disconnect();
      setSocket(null);
      setPresence([]);
    };
  }, [token, qc]);

  const value = useMemo(() => ({ socket, status, statusDetail, presence, activity, lastWeights, lastFeedback }), [socket, status, statusDetail, presence, activity, lastWeights, lastFeedback]);
  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}
