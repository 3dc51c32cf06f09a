// Errors as the Kubernetes API server reports them (a `Status`), and as Steve re-wraps them.
// Sources: k8s.io/apimachinery pkg/api/errors (StatusReason, causes, codes), rancher/apiserver
// pkg/apierror (Steve's `{type: "error", code, message, status}`).

export type StatusReason = 'NotFound' | 'AlreadyExists' | 'Conflict' | 'Forbidden' | 'Invalid' | 'BadRequest'
  | 'Unauthorized' | 'MethodNotAllowed' | 'UnsupportedMediaType' | 'InternalError';

export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  causes?: StatusCause[];
}

export interface KubeStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** rancher/apiserver pkg/handlers/error.go toError: type, status, code, message; no links. */
export interface SteveError {
  type: 'error';
  code: string;
  message: string;
  status: number;
}

export class ApiError extends Error {
  readonly status: number;
  readonly reason: StatusReason;
  readonly details?: StatusDetails;
  /** Steve answers some errors itself, with its own code and message (e.g. PermissionDenied). */
  readonly steve?: { code: string; message: string };

  constructor(status: number, reason: StatusReason, message: string, details?: StatusDetails, steve?: { code: string; message: string }) {
    super(message);
    this.status = status;
    this.reason = reason;
    this.details = details;
    this.steve = steve;
  }

  toStatus(): KubeStatus {
    const out: KubeStatus = {
      kind:       'Status',
      apiVersion: 'v1',
      metadata:   {},
      status:     'Failure',
      message:    this.message,
      reason:     this.reason,
      code:       this.status,
    };

    if (this.details) {
      out.details = this.details;
    }

    return out;
  }

  toSteve(): SteveError {
    return {
      type:    'error',
      code:    this.steve?.code ?? this.reason,
      message: this.steve?.message ?? this.message,
      status:  this.status,
    };
  }
}

/** The resource a request is about, for error messages: `managedosimages.elemental.cattle.io`. */
export interface ErrorSubject {
  group: string;
  kind: string;
  plural: string;
}

function qualified(subject: ErrorSubject): string {
  return subject.group ? `${ subject.plural }.${ subject.group }` : subject.plural;
}

export function notFound(subject: ErrorSubject, name: string): ApiError {
  return new ApiError(404, 'NotFound', `${ qualified(subject) } "${ name }" not found`, {
    name, group: subject.group, kind: subject.plural
  });
}

export function alreadyExists(subject: ErrorSubject, name: string): ApiError {
  return new ApiError(409, 'AlreadyExists', `${ qualified(subject) } "${ name }" already exists`, {
    name, group: subject.group, kind: subject.plural
  });
}

export function conflict(subject: ErrorSubject, name: string): ApiError {
  return new ApiError(409, 'Conflict',
    `Operation cannot be fulfilled on ${ qualified(subject) } "${ name }": the object has been modified; please apply your changes to the latest version and try again`,
    {
      name, group: subject.group, kind: subject.plural
    });
}

/**
 * A request RBAC refuses. On /v1 Steve passes the Kubernetes Status through as code "Forbidden"
 * with its message (rancher/steve pkg/stores/proxy/error_wrapper.go translateError).
 */
export function forbidden(subject: ErrorSubject, verb: string, user: string, name: string, namespace?: string): ApiError {
  const where = namespace ? ` in the namespace "${ namespace }"` : '';
  const groupText = subject.group ? `in API group "${ subject.group }"` : 'in API group ""';
  const prefix = name ? `${ qualified(subject) } "${ name }"` : qualified(subject);

  return new ApiError(403, 'Forbidden',
    `${ prefix } is forbidden: User "${ user }" cannot ${ verb } resource "${ subject.plural }" ${ groupText }${ where }`,
    {
      name, group: subject.group, kind: subject.plural
    });
}

/**
 * Steve refuses a method the user's schema lacks before Kubernetes sees the request
 * (rancher/apiserver pkg/parse/validate.go ValidateMethod): 403 PermissionDenied.
 */
export function methodNotSupported(method: string): ApiError {
  return new ApiError(403, 'Forbidden', `Method ${ method } not supported`, undefined, { code: 'PermissionDenied', message: `Method ${ method } not supported` });
}

export function invalid(subject: ErrorSubject, name: string, causes: StatusCause[]): ApiError {
  const parts = causes.map((c) => (c.field ? `${ c.field }: ${ c.message }` : c.message));
  const summary = parts.length === 1 ? parts[0] : `[${ parts.join(', ') }]`;

  return new ApiError(422, 'Invalid', `${ subject.kind }${ subject.group ? `.${ subject.group }` : '' } "${ name }" is invalid: ${ summary }`, {
    name, group: subject.group, kind: subject.kind, causes
  });
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

export function unauthorized(): ApiError {
  return new ApiError(401, 'Unauthorized', 'Unauthorized', undefined, { code: 'Unauthorized', message: 'must authenticate' });
}
