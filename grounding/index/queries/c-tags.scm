(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.class
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.call
(preproc_include path: (_) @name) @reference.import
(preproc_def name: (identifier) @name value: (preproc_arg) @value) @definition.constant
(translation_unit (declaration (type_qualifier) @_const declarator: (init_declarator declarator: (identifier) @name value: (_) @value)) @definition.constant (#eq? @_const "const"))
