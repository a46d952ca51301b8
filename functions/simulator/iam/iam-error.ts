/** An IAM API error: the code becomes the SDK exception's name (`NoSuchEntity` -> NoSuchEntityException). */
export class IamError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus = defaultStatus(code),
  ) {
    super(message);
    this.name = 'IamError';
  }
}

/** The HTTP status IAM answers each error code with. */
function defaultStatus(code: string): number {
  switch (code) {
    case 'NoSuchEntity':
      return 404;
    case 'EntityAlreadyExists':
    case 'LimitExceeded':
    case 'DeleteConflict':
      return 409;
    case 'AccessDenied':
      return 403;
    case 'Throttling':
      return 400;
    case 'ServiceFailure':
    case 'InternalError':
      return 500;
    default:
      return 400;
  }
}
