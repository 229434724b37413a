import { Inject, Injectable, Optional } from '@nestjs/common';
import { McpRateResultInputSchema, McpRateResultOutputSchema, type McpRateResultOutput } from '@sextant/contracts';
import type { z } from 'zod';
import { FEEDBACK_RATER, type FeedbackRater } from '../feedback-rater.port';
import { McpToolError, type McpCallContext, type McpTool, type McpToolOutcome } from '../mcp-tool';

/** `rate_result`: agents rate results like people do, and the fusion weights learn from it. */
@Injectable()
export class RateResultTool implements McpTool<typeof McpRateResultInputSchema, typeof McpRateResultOutputSchema> {
  readonly name = 'rate_result' as const;
  readonly title = 'Rate a search result';
  readonly description = [
    'Tell Sextant whether a result helped: rating 1 = relevant/helpful, -1 = not relevant, 0 = neutral. Pass the search_id',
    'printed at the end of a search / search_files_by_content / search_functions / search_classes response and the id of the',
    'result. Rate after you have read a result (especially the ones you used, and clearly wrong top results): ratings re-weight',
    'the search sources for everyone in the workspace. Returns whether the rating was recorded. Needs a member key.',
  ].join(' ');
  readonly input = McpRateResultInputSchema;
  readonly output = McpRateResultOutputSchema;
  readonly role = 'member' as const;
  readonly annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

  constructor(@Optional() @Inject(FEEDBACK_RATER) private readonly feedback: FeedbackRater | null) {}

  async run(args: z.output<typeof McpRateResultInputSchema>, ctx: McpCallContext): Promise<McpToolOutcome<McpRateResultOutput>> {
    if (!this.feedback) throw new McpToolError('feedback is not available yet', 'This server cannot record ratings yet; carry on without rating.');
    await this.feedback.rate(ctx.auth, { search_id: args.search_id, item_id: args.item_id, rating: args.rating });
    const structured: McpRateResultOutput = { recorded: true, search_id: args.search_id, item_id: args.item_id, rating: args.rating };
    return { structured, text: `Recorded rating ${args.rating} for ${args.item_id} in search ${args.search_id}.`, searchId: args.search_id };
  }
}
