/** An EC2 API error: the code becomes the SDK exception's `name`. */
export class Ec2Error extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus = defaultStatus(code),
  ) {
    super(message);
    this.name = 'Ec2Error';
  }
}

function defaultStatus(code: string): number {
  if (code === 'RequestLimitExceeded' || code === 'Throttling') return 503;
  if (code === 'InternalError' || code === 'ServiceUnavailable' || code === 'Unavailable') return 500;
  return 400;
}
