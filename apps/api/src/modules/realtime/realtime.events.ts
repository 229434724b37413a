/** Internal event names other modules emit and the gateway forwards. */
export const FeedbackEvents = {
  Recorded: 'feedback.recorded',
  WeightsUpdated: 'weights.updated',
} as const;

/** One socket.io room per workspace: events never cross workspaces. */
export const workspaceRoom = (workspaceId: string) => `ws:${workspaceId}`;
