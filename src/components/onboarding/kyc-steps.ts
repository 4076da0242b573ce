// The steps after the customer exists (information, parties, documents, liveness, submit, status): a chunk of their own,
// fetched once the first step is done or a bound session resumes past it, so the first step loads without them.
// The documents and status steps render <ramp-document-uploader> inside this element's shadow root, where the loader
// cannot see it: defined here.
import '../../elements/document-uploader';
import { DocumentsStep } from './documents-step';
import { InfoStep } from './info-step';
import { LivenessStep } from './liveness-step';
import { PartiesStep } from './parties-step';
import type { StepContext } from './step-context';
import { StatusStep } from './status-step';
import { SubmitStep } from './submit-step';

export function kycSteps(ctx: StepContext) {
  return {
    info: new InfoStep(ctx),
    parties: new PartiesStep(ctx),
    documents: new DocumentsStep(ctx),
    liveness: new LivenessStep(ctx),
    submit: new SubmitStep(ctx),
    status: new StatusStep(ctx),
  };
}

export type KycSteps = ReturnType<typeof kycSteps>;
