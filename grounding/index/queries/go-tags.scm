(function_declaration name: (identifier) @name) @definition.function
(method_declaration name: (field_identifier) @name) @definition.method
(type_declaration (type_spec name: (type_identifier) @name type: [(struct_type) (interface_type)])) @definition.class
(type_declaration (type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list (field_declaration !name type: (_) @bases))))) @definition.class
(type_declaration (type_spec name: (type_identifier) @name type: (interface_type (type_elem (_) @bases)))) @definition.class
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (selector_expression operand: (_) @receiver field: (field_identifier) @name)) @reference.call
(import_spec path: (interpreted_string_literal) @name) @reference.import
(source_file (const_declaration (const_spec name: (identifier) @name value: (expression_list . (_) @value .) (#not-match? @value "\\biota\\b")) @definition.constant))
(source_file (const_declaration (const_spec name: (identifier) @name value: (_) @_iota (#match? @_iota "\\biota\\b")) @definition.constant))
(source_file (const_declaration (const_spec name: (identifier) @name !value) @definition.constant))
