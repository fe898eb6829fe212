"""Static files for production: collectstatic writes hashed names (``table.3f2a….js``)
that never change, so nginx can let browsers cache them for a year."""

from django.contrib.staticfiles.storage import ManifestStaticFilesStorage


class StaticStorage(ManifestStaticFilesStorage):
    # Rewrite ES module imports too (`import … from "./telemetry.js"`), so a page and the
    # modules it imports load the same hashed files: one module instance, one version.
    support_js_module_import_aggregation = True
    # Each pass settles one more level of imports (a module's hash changes with the hashed
    # names it imports); the table's modules import each other up to eight deep
    # (table.js, table/motion.js, table/render.js ... words.js), past Django's default of 5.
    max_post_process_passes = 20
