(class_declaration name: (identifier) @name (base_list)? @bases) @definition.class
(interface_declaration name: (identifier) @name (base_list)? @bases) @definition.class
(struct_declaration name: (identifier) @name (base_list)? @bases) @definition.class
(record_declaration name: (identifier) @name (base_list)? @bases) @definition.class
(enum_declaration name: (identifier) @name) @definition.class
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(local_function_statement name: (identifier) @name) @definition.function
(invocation_expression function: (identifier) @name) @reference.call
(invocation_expression function: (member_access_expression expression: _ @receiver name: (identifier) @name)) @reference.call
(object_creation_expression type: (identifier) @name) @reference.call
(using_directive [(identifier) (qualified_name)] @name) @reference.import
(field_declaration (modifier) @_const (variable_declaration (variable_declarator name: (identifier) @name . (_) @value)) (#eq? @_const "const")) @definition.constant
(field_declaration (modifier) @_static (modifier) @_readonly (variable_declaration (variable_declarator name: (identifier) @name . (_) @value)) (#eq? @_static "static") (#eq? @_readonly "readonly")) @definition.constant
(parameter name: (identifier) @name . (_) @value) @definition.default
(throw_statement (object_creation_expression type: (_) @name)) @reference.raise
(throw_expression (object_creation_expression type: (_) @name)) @reference.raise
(throw_statement (identifier) @name) @reference.raise
(catch_clause (catch_declaration type: (_) @name name: (identifier)? @bound)) @reference.except
