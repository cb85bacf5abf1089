(function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (qualified_identifier) (destructor_name) (operator_name)] @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (qualified_identifier)] @name))) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: [(identifier) (qualified_identifier)] @name))) @definition.function
(class_specifier name: (type_identifier) @name (base_class_clause)? @bases body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name (base_class_clause)? @bases body: (_)) @definition.class
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression function: (qualified_identifier name: (identifier) @name)) @reference.call
(preproc_include path: (_) @name) @reference.import
(preproc_def name: (identifier) @name value: (preproc_arg) @value) @definition.constant
(translation_unit (declaration (type_qualifier) @_const declarator: (init_declarator declarator: (identifier) @name value: (_) @value)) @definition.constant (#match? @_const "^const(expr)?$"))
(namespace_definition body: (declaration_list (declaration (type_qualifier) @_const declarator: (init_declarator declarator: (identifier) @name value: (_) @value)) @definition.constant (#match? @_const "^const(expr)?$")))
(field_declaration (type_qualifier) @_const declarator: (field_identifier) @name default_value: (_) @value (#match? @_const "^const(expr)?$")) @definition.constant
(optional_parameter_declaration declarator: [(identifier) @name (reference_declarator (identifier) @name) (pointer_declarator declarator: (identifier) @name)] default_value: (_) @value) @definition.default
(throw_statement (call_expression function: [(identifier) (qualified_identifier) (template_function)] @name)) @reference.raise
(throw_statement (identifier) @name) @reference.raise
(catch_clause parameters: (parameter_list (parameter_declaration type: (_) @name declarator: [(identifier) @bound (reference_declarator (identifier) @bound) (pointer_declarator declarator: (identifier) @bound)]?))) @reference.except
