fn main() {
    println!("pdnkit");
}
