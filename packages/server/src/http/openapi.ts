import { generateOpenApi } from '@ts-rest/open-api';
import { contract, type RouteMetadata } from '@kura/contract';

let cached: ReturnType<typeof generateOpenApi> | undefined;

/** The OpenAPI 3 document, generated from the contract once. */
export function openApiDocument() {
  cached ??= generateOpenApi(
    contract,
    {
      info: {
        title: 'Kura election service API',
        version: '1.0.0',
        description:
          'Every endpoint is served under /api/v1; /api is an alias of the current version. ' +
          'Authenticate with `Authorization: Bearer <token>`. Errors use the envelope {message, issue?, errors?}.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
    {
      setOperationId: true,
      operationMapper: (operation, route) => {
        const access = (route.metadata as RouteMetadata | undefined)?.access ?? 'anyone';
        const guarded = access !== 'anyone' && !access.startsWith('pending');
        return {
          ...operation,
          'x-access': access,
          ...(guarded ? { security: [{ bearer: [] }] } : {}),
        };
      },
    },
  );
  return cached;
}
