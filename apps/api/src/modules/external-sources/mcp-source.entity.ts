import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** An external MCP server a workspace queries as the search source `mcp.<name>`. */
@Entity('mcp_sources')
export class McpSourceEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id!: string;
  @Column({ name: 'workspace_id', type: 'varchar', length: 36 }) workspaceId!: string;
  @Column({ type: 'varchar', length: 40 }) name!: string;
  @Column({ name: 'transport_type', type: 'varchar', length: 8 }) transportType!: 'stdio' | 'http';
  /** McpSourceTransport as JSON (env and header values included: never returned by the API). */
  @Column({ type: 'text' }) transport!: string;
  @Column({ type: Boolean, default: true }) enabled!: boolean;
  @Column({ type: 'real', default: 2 }) priority!: number;
  @Column({ name: 'result_limit', type: 'integer', default: 5 }) resultLimit!: number;
  @Column({ name: 'timeout_ms', type: 'integer', default: 15000 }) timeoutMs!: number;
  @CreateDateColumn({ name: 'created_at' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at' }) updatedAt!: Date;
}
