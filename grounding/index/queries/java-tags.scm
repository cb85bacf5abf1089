(class_declaration name: (identifier) @name superclass: (superclass)? @bases interfaces: (super_interfaces)? @bases) @definition.class
(interface_declaration name: (identifier) @name (extends_interfaces)? @bases) @definition.class
(enum_declaration name: (identifier) @name interfaces: (super_interfaces)? @bases) @definition.class
(record_declaration name: (identifier) @name interfaces: (super_interfaces)? @bases) @definition.class
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(method_invocation object: (_)? @receiver name: (identifier) @name) @reference.call
(object_creation_expression type: (type_identifier) @name) @reference.call
(import_declaration (scoped_identifier) @name) @reference.import
(field_declaration (modifiers) @_mods declarator: (variable_declarator name: (identifier) @name value: (_)? @value) (#match? @_mods "\\bstatic\\b") (#match? @_mods "\\bfinal\\b")) @definition.constant
(constant_declaration declarator: (variable_declarator name: (identifier) @name value: (_)? @value)) @definition.constant
(throw_statement (object_creation_expression type: [(type_identifier) (scoped_type_identifier) (generic_type)] @name)) @reference.raise
(throw_statement (identifier) @name) @reference.raise
(method_declaration (throws [(type_identifier) (scoped_type_identifier) (generic_type)] @name) @reference.raise @declared)
(constructor_declaration (throws [(type_identifier) (scoped_type_identifier) (generic_type)] @name) @reference.raise @declared)
(catch_clause (catch_formal_parameter (catch_type [(type_identifier) (scoped_type_identifier)] @name) name: (identifier) @bound)) @reference.except
