resource "%{if x}a%{endif}" {
}
