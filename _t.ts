import { loadConfigDocuments } from './functions/core/model/config/load.js';
