/**
 * TanStack Query hooks over the REST API. Query keys are shared with the realtime layer,
 * which writes live job frames into `['jobs']` and invalidates after `index:done`.
 */
import type { ImportTasksFileRequest, IndexJob, IndexJobKind, RegisterRepositoryRequest, Repository, RepositoryDetail, SimilarTask, Task, TaskImportResult } from '@sextant/contracts';
import { addImportPiece, importedBefore, taskFilePieces } from '@sextant/contracts/task-import-pieces';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from './client';

export const queryKeys = {
  me: ['me'] as const,
  repos: ['repos'] as const,
  repo: (id: string) => ['repos', id] as const,
  jobs: ['jobs'] as const,
  tasks: (q: TaskListParams) => ['tasks', q] as const,
  weights: ['weights'] as const,
  ranker: ['ranker'] as const,
};

export interface Me {
  workspace: { id: string; slug: string; name: string };
  role: 'reader' | 'member' | 'admin';
  principal: string;
  /** The API key's name, when signed in with a key. */
  principal_name?: string | null;
  local_mode: boolean;
}

export const fetchMe = (key?: string | null) => api<Me>('/v1/auth/me', { key });

export function useRepositories() {
  return useQuery({ queryKey: queryKeys.repos, queryFn: async () => (await api<{ repositories: Repository[] }>('/v1/repos')).repositories });
}

export function useRepositoryDetail(id: string) {
  return useQuery({ queryKey: queryKeys.repo(id), queryFn: () => api<RepositoryDetail>(`/v1/repos/${id}`) });
}

export function useJobs() {
  return useQuery({ queryKey: queryKeys.jobs, queryFn: async () => (await api<{ jobs: IndexJob[] }>('/v1/jobs')).jobs });
}

/** Puts a job frame (REST answer or socket event) into the jobs cache, newest frame wins. */
export function mergeJob(list: IndexJob[] | undefined, job: IndexJob): IndexJob[] {
  const jobs = list ? [...list] : [];
  const i = jobs.findIndex((j) => j.id === job.id);
  if (i < 0) return [job, ...jobs];
  // A late volatile progress frame must not move a finished job backwards.
  const prev = jobs[i];
  const finished = (j: IndexJob) => j.status === 'succeeded' || j.status === 'failed' || j.status === 'cancelled';
  if (finished(prev) && !finished(job)) return jobs;
  jobs[i] = job;
  return jobs;
}

export function useRegisterRepository() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RegisterRepositoryRequest) => api<Repository & { job: IndexJob | null }>('/v1/repos', { method: 'POST', body }),
    onSuccess: (repo) => {
      if (repo.job) qc.setQueryData<IndexJob[]>(queryKeys.jobs, (jobs) => mergeJob(jobs, repo.job!));
      void qc.invalidateQueries({ queryKey: queryKeys.repos });
    },
  });
}

export function useStartIndex() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ repoId, kind }: { repoId: string; kind: IndexJobKind }) => api<IndexJob>(`/v1/repos/${repoId}/index`, { method: 'POST', body: { kind } }),
    onSuccess: (job) => qc.setQueryData<IndexJob[]>(queryKeys.jobs, (jobs) => mergeJob(jobs, job)),
  });
}

export function useCancelJob() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) => api<IndexJob>(`/v1/jobs/${jobId}/cancel`, { method: 'POST' }),
    onSuccess: (job) => qc.setQueryData<IndexJob[]>(queryKeys.jobs, (jobs) => mergeJob(jobs, job)),
  });
}

export function useSetWatch() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ repoId, watch }: { repoId: string; watch: boolean }) => api<Repository>(`/v1/repos/${repoId}`, { method: 'PATCH', body: { watch } }),
    onSuccess: (repo) => qc.setQueryData<Repository[]>(queryKeys.repos, (list) => list?.map((r) => (r.id === repo.id ? repo : r))),
  });
}

export function useRemoveRepository() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (repoId: string) => api<void>(`/v1/repos/${repoId}`, { method: 'DELETE' }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.repos }),
  });
}

export interface TaskListParams {
  query?: string;
  source?: string;
  limit: number;
  offset: number;
}

export function useTasks(params: TaskListParams) {
  return useQuery({
    queryKey: queryKeys.tasks(params),
    placeholderData: keepPreviousData,
    queryFn: () => {
      const qs = new URLSearchParams({ limit: String(params.limit), offset: String(params.offset) });
      if (params.query) qs.set('query', params.query);
      if (params.source) qs.set('source', params.source);
      return api<{ tasks: Array<Task | SimilarTask>; total: number }>(`/v1/tasks?${qs}`);
    },
  });
}

/**
 * Imports a task file in pieces of whole lines or CSV records, each well under the server's body
 * limit, so a file of any size goes through; `progress` counts the pieces sent. When a piece
 * fails, the error says how much of the file was imported before it.
 */
export function useImportTasksFile() {
  const qc = useQueryClient();
  const [progress, setProgress] = useState<{ sent: number; of: number } | null>(null);
  const mutation = useMutation({
    mutationFn: async (body: ImportTasksFileRequest) => {
      const pieces = taskFilePieces(body.format, body.content);
      const total: TaskImportResult = { imported: 0, updated: 0, skipped: 0, errors: [] };
      for (const [i, piece] of pieces.entries()) {
        setProgress({ sent: i, of: pieces.length });
        try {
          addImportPiece(total, await api<TaskImportResult>('/v1/tasks/import', { method: 'POST', body: { ...body, content: piece.content } }), piece.lineShift);
        } catch (err) {
          if (i === 0) throw err;
          throw new Error(`${errorText(err)} (${importedBefore(body.format, piece, total)})`);
        }
      }
      return total;
    },
    onSettled: () => {
      setProgress(null);
      void qc.invalidateQueries({ queryKey: ['tasks'] });
    },
  });
  return { ...mutation, progress };
}

export function useImportGit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { repository_id: string; since?: string; until?: string }) => api<TaskImportResult & { noise: number }>('/v1/tasks/import-git', { method: 'POST', body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['tasks'] }),
  });
}
