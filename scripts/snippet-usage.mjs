// The call that puts one integrator's step into the loop around it lives in the page
// (web/panels/snippet-usage.js): the Step code dialog writes it for the lane it was opened on, with
// that lane's substeps and iterations. The build (scripts/snippets-module.mjs) and the tests import it here.
export * from '../web/panels/snippet-usage.js';
