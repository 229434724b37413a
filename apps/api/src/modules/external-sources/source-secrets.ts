import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';

const PREFIX = 'enc:v1:';
const KEY_FILE = 'source-secrets.key';

/**
 * Encrypts MCP source transports (their env and header values are tokens) at rest with
 * AES-256-GCM. The key is SEXTANT_SECRET_KEY (64 hex characters; set it when several
 * processes share one database) or a random key kept in `$SEXTANT_DATA_DIR/source-secrets.key`
 * (0600), created on first use. A database dump alone does not reveal the tokens.
 */
@Injectable()
export class SourceSecrets {
  private key?: Buffer;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keyBytes(), iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${data.toString('base64')}`;
  }

  /** Plain text of a sealed value (values stored before encryption are returned as they are). */
  open(stored: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const [iv, tag, data] = stored.slice(PREFIX.length).split(':').map((p) => Buffer.from(p, 'base64'));
    const decipher = createDecipheriv('aes-256-gcm', this.keyBytes(), iv);
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('cannot decrypt the MCP source settings: SEXTANT_SECRET_KEY (or source-secrets.key in the data dir) differs from the one they were saved with');
    }
  }

  private keyBytes(): Buffer {
    if (this.key) return this.key;
    const configured = this.config.externalSources.secretKey;
    if (configured) return (this.key = Buffer.from(configured, 'hex'));
    const file = path.join(this.config.storage.dataDir, KEY_FILE);
    try {
      fs.writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    return (this.key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex'));
  }
}
