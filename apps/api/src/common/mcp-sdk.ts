/* eslint-disable @typescript-eslint/no-require-imports */
/**
 * The parts of the MCP SDK the server uses, required on first use rather than at startup: the
 * SDK, Ajv and their zod converters cost ~20 MB of RSS in every `sextant serve`, and most
 * servers answer REST and socket traffic long before (or without ever) seeing an MCP request or
 * querying an external MCP source.
 */
let sdk: ReturnType<typeof load> | undefined;

function load() {
  return {
    ...(require('@modelcontextprotocol/sdk/server/index.js') as typeof import('@modelcontextprotocol/sdk/server/index.js')),
    ...(require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')),
    ...(require('@modelcontextprotocol/sdk/server/stdio.js') as typeof import('@modelcontextprotocol/sdk/server/stdio.js')),
    ...(require('@modelcontextprotocol/sdk/server/zod-compat.js') as typeof import('@modelcontextprotocol/sdk/server/zod-compat.js')),
    ...(require('@modelcontextprotocol/sdk/server/zod-json-schema-compat.js') as typeof import('@modelcontextprotocol/sdk/server/zod-json-schema-compat.js')),
    ...(require('@modelcontextprotocol/sdk/validation/ajv-provider.js') as typeof import('@modelcontextprotocol/sdk/validation/ajv-provider.js')),
    ...(require('@modelcontextprotocol/sdk/client/index.js') as typeof import('@modelcontextprotocol/sdk/client/index.js')),
    ...(require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
    ...(require('@modelcontextprotocol/sdk/shared/stdio.js') as typeof import('@modelcontextprotocol/sdk/shared/stdio.js')),
    ...(require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js')),
  };
}

/** The MCP SDK (server, client, transports, request schemas), loaded on the first call. */
export function mcpSdk(): ReturnType<typeof load> {
  return (sdk ??= load());
}
