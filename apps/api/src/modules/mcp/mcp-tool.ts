import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolName } from '@sextant/contracts';
import type { z } from 'zod';
import type { AuthContext, Role } from '../auth/auth-context';

/** Who is calling a tool, over what, and the id its log lines carry. */
export interface McpCallContext {
  auth: AuthContext;
  transport: 'http' | 'stdio';
  callId: string;
  signal?: AbortSignal;
}

/** What a tool hands back: the structured result, a readable rendering of it for the model, and log fields. */
export interface McpToolOutcome<O> {
  structured: O;
  text: string;
  /** The logged search, for tools that search (rate_result refers to it). */
  searchId?: string;
  resultCount?: number;
}

/**
 * One MCP tool: its name, a description written for a model (when to use it, what comes
 * back), zod input/output schemas from libs/contracts, the least role that may call it,
 * and the use case. Transport wiring (HTTP, stdio) lives in McpServerFactory.
 */
export interface McpTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  readonly name: McpToolName;
  readonly title: string;
  readonly description: string;
  readonly input: I;
  readonly output: O;
  readonly role: Role;
  readonly annotations: ToolAnnotations;
  run(args: z.output<I>, ctx: McpCallContext): Promise<McpToolOutcome<z.output<O>>>;
}

/** A failure the model can act on: `hint` says what to do differently. Returned as an `isError` result. */
export class McpToolError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'McpToolError';
  }
}

/** DI token for the list of tools every server (HTTP or stdio) registers. */
export const MCP_TOOLS = Symbol('MCP_TOOLS');
