export { admissionEvents } from './admission-events.js';
export {
  type AdmissionRequest,
  type AdmissionResponse,
  type AdmissionReview,
  allowedResponse,
  parseAdmissionReview,
} from './admission-review.js';
