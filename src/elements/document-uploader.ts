// Bundler entry and lazy chunk of <ramp-document-uploader>: importing it registers the tag (once) and exports the class.
import { RampDocumentUploader } from '../components/document-uploader/document-uploader';
import { defineOnce } from './define-once';

defineOnce('ramp-document-uploader', RampDocumentUploader);

export { RampDocumentUploader };
