import { CreateApiKeyRequestSchema } from '@sextant/contracts';
import { zodDto } from '../../../common/zod-validation.pipe';

// The wire shapes live in libs/contracts (the dashboard's settings page uses them too).
export { ApiKeySchema, CreateApiKeyRequestSchema, CreatedApiKeySchema, RoleSchema, type ApiKey, type CreateApiKeyRequest, type CreatedApiKey } from '@sextant/contracts';

export class CreateApiKeyDto extends zodDto(CreateApiKeyRequestSchema) {}
